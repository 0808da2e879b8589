/**
 * The bundles a build takes from `.site/bundles/` are the bundles esbuild would make: the same files and
 * assets, a template edit taken at once, and a bundled templates module on disk imported only as it was written.
 */
import { spawn } from 'node:child_process'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleClient, type ClientBundle } from '../../src/hydration/bundle.js'
import { loadTemplates } from '../../src/hydration/node-registry.js'
import { REPO_ROOT } from './build-helpers.js'

let project: string

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'site-bundle-cache-'))
  for (const dir of ['templates', 'config', 'public'])
    await cp(join(REPO_ROOT, dir), join(project, dir), { recursive: true })
})

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true })
})

/** A bundle as comparable data: its assets and hints, and each file's path and bytes. */
const plain = (bundle: ClientBundle) => ({
  assets: bundle.assets,
  hints: bundle.hints,
  files: bundle.files.map((file) => [file.path, Buffer.from(file.contents).toString('base64')]),
})

const textTemplate = () => join(project, 'templates/content/Text.tsx')

describe('bundles from the cache', () => {
  it('equal what esbuild makes, before and after a template is edited', async () => {
    const fresh = plain(await bundleClient({ root: project, cache: false }))
    await bundleClient({ root: project })
    expect(plain(await bundleClient({ root: project }))).toEqual(fresh)

    const source = await readFile(textTemplate(), 'utf8')
    // a class name the minifier keeps, so the edit shows in the bytes
    await writeFile(textTemplate(), source.replace('className=', 'data-edited="yes" className='))
    const edited = plain(await bundleClient({ root: project }))
    expect(edited).not.toEqual(fresh)
    expect(edited).toEqual(plain(await bundleClient({ root: project, cache: false })))
    expect(edited.files.some(([, bytes]) => Buffer.from(bytes!, 'base64').includes('data-edited'))).toBe(true)
    await writeFile(textTemplate(), source)
  }, 60_000)

  it('load the templates for Node, and a bundled module changed on disk is written again before it is imported', async () => {
    await loadTemplates(project)
    const dir = join(project, '.site/templates')
    const [file] = (await readdir(dir)).filter((name) => name.endsWith('.mjs'))
    const written = await readFile(join(dir, file!), 'utf8')
    await writeFile(join(dir, file!), 'export default { layouts: {}, content: {} }\n')

    const registry = await loadTemplates(project)
    expect(await readFile(join(dir, file!), 'utf8')).toBe(written)
    expect(Object.keys(registry.content)).toContain('Text')
    expect(typeof registry.Header).toBe('function')
  }, 60_000)

  it('replace a folder left where a bundled module or a cached bundle goes', async () => {
    await loadTemplates(project)
    const dir = join(project, '.site/templates')
    const [file] = (await readdir(dir)).filter((name) => name.endsWith('.mjs'))
    const written = await readFile(join(dir, file!), 'utf8')
    await rm(join(dir, file!))
    await mkdir(join(dir, file!, 'inside'), { recursive: true })
    const record = join(project, '.site/bundles/templates.json')
    await rm(record)
    await mkdir(record)

    const registry = await loadTemplates(project)
    expect(await readFile(join(dir, file!), 'utf8')).toBe(written)
    expect(JSON.parse(await readFile(record, 'utf8'))).toMatchObject({})
    expect(Object.keys(registry.content)).toContain('Text')
  }, 60_000)
})

/** Loads the project's config and templates in `count` processes started together (the compiled engine). */
async function loadTogether(count: number): Promise<Array<{ code: number | null; out: string }>> {
  const script = `
    const { resolveConfig } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/config/load.js')).href)})
    const { loadTemplates } = await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/hydration/node-registry.js')).href)})
    const config = await resolveConfig({ root: ${JSON.stringify(project)} })
    const registry = await loadTemplates(${JSON.stringify(project)})
    console.log(config.sites.length, Object.keys(registry.content).length)`
  return Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let out = ''
      child.stdout.on('data', (chunk) => (out += chunk))
      child.stderr.on('data', (chunk) => (out += chunk))
      return new Promise<{ code: number | null; out: string }>((done) =>
        child.on('close', (code) => done({ code, out })),
      )
    }),
  )
}

describe('modules the cache hands to Node', () => {
  it('are never imported half written, however many processes load them at once', async () => {
    for (let round = 0; round < 3; round++) {
      // each round starts from modules changed on disk: every process finds them wrong and writes them again
      for (const dir of ['config', 'templates']) {
        for (const name of await readdir(join(project, '.site', dir)).catch(() => [])) {
          if (name.endsWith('.mjs')) await writeFile(join(project, '.site', dir, name), '')
        }
      }
      const runs = await loadTogether(6)
      for (const run of runs) {
        expect(run.out).toMatch(/^1 \d+\n$/)
        expect(run.code).toBe(0)
      }
    }
  }, 120_000)
})

describe("a build's bundle", () => {
  // The editor's widgets went into every output (about 8.5 KB) though no built page loads them: they are preview's.
  it('holds no editor script: a built page never loads one', async () => {
    const bundle = await bundleClient({ root: project, cache: false })
    expect(bundle.editorAssets).toBeUndefined()
    expect(bundle.files.map((file) => file.path).filter((path) => /\/editor-/.test(path))).toEqual([])
  }, 60_000)
})
