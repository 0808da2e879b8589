/**
 * The engine as a team installs it: `npm pack`, a new site project outside the repository (`site init`), the
 * tarball installed there with npm, and the demo built by the installed engine against the demo API.
 */
import { lstat, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { REPO_ROOT } from '../integration/build-helpers.js'
import { runCommand, runSite } from '../integration/cli-helpers.js'

/** `npm ...args` in `cwd`; offline first: every dependency is in the npm cache of a machine set up for the tests. */
const npm = (args: string[], cwd: string) =>
  runCommand('npm', args, {
    cwd,
    env: { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
  })

let work: string
let project: string
let tarball: string
let packed: string[]
let api: DemoApi

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'site-package-'))
  project = join(work, 'acme-site')
  // dist/ is compiled by the test run's global setup; `prepare` would compile it again under the other tests' feet.
  // The type declarations a release carries (`prepack`), which the project's typecheck reads, are made here.
  const declarations = await npm(['run', 'prepack'], REPO_ROOT)
  if (declarations.code !== 0) throw new Error(`npm run prepack failed: ${declarations.stdout}${declarations.stderr}`)
  const pack = await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], REPO_ROOT)
  if (pack.code !== 0) throw new Error(`npm pack failed: ${pack.stderr}`)
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>
  tarball = join(work, info!.filename)
  packed = info!.files.map((f) => f.path)
  const init = await runSite(['init', project])
  if (init.code !== 0) throw new Error(`site init failed: ${init.stderr}`)
  const install = await npm(['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project)
  if (install.code !== 0) throw new Error(`npm install failed: ${install.stderr}`)
  api = await startDemoApi({ port: 0 })
})
afterAll(async () => {
  await api?.close()
  await rm(work, { recursive: true, force: true })
})

describe('the engine installed from its npm package', () => {
  it('packs what an install needs: the compiled engine, the browser sources, the demo, no tests', async () => {
    const pkg = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8'))
    expect(pkg.private).toBeUndefined()
    expect(pkg.bin).toEqual({ site: 'bin/site.js' })
    for (const target of Object.values(pkg.exports as Record<string, string | { default: string; types: string }>)) {
      const files = typeof target === 'string' ? [target] : [target.default, target.types]
      for (const file of files) expect(packed).toContain(file.replace(/^\.\//, ''))
    }
    for (const file of [
      'bin/site.js',
      'dist/cli/index.js',
      'src/client/entry.tsx',
      'templates/Header.tsx',
      'scaffold/gitignore',
      'LICENSE',
      // the benchmark figures the docs link to; not the benchmarks
      'bench/README.md',
    ])
      expect(packed).toContain(file)
    expect(packed.filter((f) => /^(test|bench|scripts|\.ci)\//.test(f))).toEqual(['bench/README.md'])
  })

  it('installs into a project outside the repository and builds the demo there', async () => {
    const installed = join(project, 'node_modules/typo3-headless-site')
    expect((await lstat(installed)).isSymbolicLink()).toBe(false)
    const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8'))
    expect(manifest.dependencies['typo3-headless-site']).toMatch(/^file:.*\.tgz$/)

    const build = await npm(['run', 'build', '--', '--api', api.url, '--json'], project)
    expect(build.code, build.stderr).toBe(0)
    const summary = JSON.parse(build.stdout.slice(build.stdout.indexOf('{')))
    expect(summary.failures).toEqual([])
    expect(summary.pages.total).toBeGreaterThanOrEqual(50)
    expect(Object.keys(summary.pages.byLocale)).toEqual(['en', 'pl', 'de'])
    const out = join(project, '.output/public')
    const home = await readFile(join(out, 'index.html'), 'utf8')
    expect(home).toContain('Amberline')
    const script =
      /src="(\/_site\/assets\/[^"]+\.js)"/.exec(home)?.[1] ?? /"(\/_site\/assets\/[^"]+\.js)"/.exec(home)?.[1]
    expect(script, 'the home page loads a client script').toBeDefined()
    expect((await stat(join(out, script!))).size).toBeGreaterThan(0)
    expect((await stat(join(out, 'pl/index.html'))).isFile()).toBe(true)
  })

  // the build cannot tell a text a locale lacks (its pages show nothing there): the types do, and CI runs them
  it('typechecks as it comes, and the typecheck names a text a locale lacks', async () => {
    const clean = await npm(['run', 'typecheck'], project)
    expect(clean.code, clean.stdout + clean.stderr).toBe(0)
    const texts = join(project, 'templates/texts/de.ts')
    const german = await readFile(texts, 'utf8')
    try {
      await writeFile(texts, german.replace(/^\s*cancel:.*\n/m, ''))
      const lacking = await npm(['run', 'typecheck'], project)
      expect(lacking.code).not.toBe(0)
      expect(lacking.stdout).toMatch(/templates\/texts\/de\.ts.*cancel/s)
    } finally {
      await writeFile(texts, german)
    }
  })
})
