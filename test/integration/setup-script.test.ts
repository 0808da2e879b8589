/**
 * scripts/setup.sh once ran `sudo apt-get` before `npm ci`, so on a machine without apt
 * (macOS) it stopped before installing anything. Run here as there: on a PATH with node and npm but
 * no apt-get, sudo or java, in a copy of the script over a project with no dependencies.
 */
import { spawnSync } from 'node:child_process'
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from './build-helpers.js'

/** What the script needs of a machine, and nothing else: no apt-get, no sudo, no java. */
const TOOLS = ['bash', 'sh', 'env', 'dirname', 'id', 'node', 'npm', 'cmp', 'mkdir', 'cp']

let dir: string
let bin: string

function which(tool: string): string {
  const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim()
  if (!found) throw new Error(`${tool} is not on this machine's PATH`)
  return found
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-setup-'))
  bin = join(dir, 'bin')
  await mkdir(join(dir, 'project/scripts'), { recursive: true })
  await mkdir(bin)
  for (const tool of TOOLS) await symlink(which(tool), join(bin, tool))
  const project = join(dir, 'project')
  await copyFile(join(REPO_ROOT, 'scripts/setup.sh'), join(project, 'scripts/setup.sh'))
  await chmod(join(project, 'scripts/setup.sh'), 0o755)
  const manifest = { name: 'setup-probe', version: '1.0.0', private: true }
  await writeFile(join(project, 'package.json'), JSON.stringify(manifest))
  await writeFile(
    join(project, 'package-lock.json'),
    JSON.stringify({ ...manifest, lockfileVersion: 3, requires: true, packages: { '': manifest } }),
  )
})
afterAll(() => rm(dir, { recursive: true, force: true }))

function setup(env: Record<string, string>) {
  // stderr into stdout, in the order the script wrote them.
  const res = spawnSync(join(bin, 'bash'), ['-c', 'bash scripts/setup.sh 2>&1'], {
    cwd: join(dir, 'project'),
    encoding: 'utf8',
    env: {
      PATH: bin,
      HOME: dir,
      npm_config_cache: join(dir, 'npm-cache'),
      npm_config_update_notifier: 'false',
      ...env,
    },
  })
  return { code: res.status, output: res.stdout }
}

describe('scripts/setup.sh on a machine without apt', () => {
  it('installs the npm packages first, then says how to provide what the tests need', () => {
    const missing = join(dir, 'no-such-browser')
    const { code, output } = setup({ CHROMIUM_PATH: missing })
    expect(code, output).toBe(0)
    const npmRan = output.search(/added \d+ packages?|up to date/)
    expect(npmRan, output).toBeGreaterThanOrEqual(0)
    const java = output.indexOf(
      'setup: no java on the PATH and no apt-get here: install a Java runtime (e.g. brew install openjdk) for the Nu HTML checker in the tests (without it that check is skipped)',
    )
    const browser = output.indexOf(
      `setup: CHROMIUM_PATH=${missing} is not an executable file: the browser tests will fail until it points at a Chromium or Chrome`,
    )
    expect(java, output).toBeGreaterThan(npmRan)
    expect(browser, output).toBeGreaterThan(npmRan)
    expect(output).not.toMatch(/apt-get: command not found|sudo: command not found/)
  })

  it('says nothing of a browser that CHROMIUM_PATH names', () => {
    const { code, output } = setup({ CHROMIUM_PATH: join(bin, 'node') })
    expect(code, output).toBe(0)
    expect(output).not.toContain('CHROMIUM_PATH=')
    expect(output).not.toContain('no Chromium')
  })
})

describe('scripts/setup.sh run again', () => {
  it('skips npm ci while node_modules was installed from this package-lock.json and dist/ is there, and not after', async () => {
    const project = join(dir, 'project')
    const browser = { CHROMIUM_PATH: join(bin, 'node') }
    const first = setup(browser)
    expect(first.code, first.output).toBe(0)
    await mkdir(join(project, 'dist/cli'), { recursive: true })
    await writeFile(join(project, 'dist/cli/index.js'), '')
    const again = setup(browser)
    expect(again.code, again.output).toBe(0)
    expect(again.output).toContain(
      'setup: node_modules is current (installed from this package-lock.json): npm ci skipped',
    )
    expect(again.output).not.toMatch(/added \d+ packages?|up to date/)

    const lock = join(project, 'package-lock.json')
    await writeFile(lock, `${await readFile(lock, 'utf8')}\n`)
    const changed = setup(browser)
    expect(changed.code, changed.output).toBe(0)
    expect(changed.output).not.toContain('npm ci skipped')
    expect(changed.output).toMatch(/added \d+ packages?|up to date/)
  })
})
