/**
 * Failures before the first page are CI-visible like every other failure, through the real CLI: whatever
 * stops a command (the CMS down, the config, the templates, a flag, a port), `site build --json` still
 * prints a summary with `ok: false` and the failure's kind, and under GitHub Actions there is an `::error`
 * annotation and a step summary that name the API by its origin, never by its credentials.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FailedRunSummary } from '../../src/cli/failure.js'
import { initialDataFault } from '../../src/demo/faults.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { REPO_ROOT } from './build-helpers.js'
import { type CliRun, runSite } from './cli-helpers.js'
import { closedPort } from './ports.js'

const PASSWORD = 'pw-s3cret-9'
const TOKEN = 'tok-0123456789'
const HEADER = 'hdr-abcdef-42'
const SECRETS = [PASSWORD, TOKEN, HEADER, 'ci-user']

let down: DemoApi
let dir: string
let project: string
let busy: Server
let busyPort: number

/** A config whose API URL and headers carry credentials, at `origin`. */
async function configFor(name: string, origin: string): Promise<string> {
  const file = join(dir, `${name}.json`)
  const url = new URL(origin)
  url.username = 'ci-user'
  url.password = PASSWORD
  url.search = `?token=${TOKEN}`
  await writeFile(
    file,
    JSON.stringify({
      api: { baseUrl: url.href, headers: { authorization: `Bearer ${HEADER}` } },
      i18n: { default: 'en', locales: ['en'] },
    }),
  )
  return file
}

beforeAll(async () => {
  down = await startDemoApi({ port: 0, faults: [initialDataFault()] })
  dir = await mkdtemp(join(tmpdir(), 'site-cli-failures-'))
  project = join(dir, 'project')
  for (const folder of ['templates', 'config', 'public'])
    await cp(join(REPO_ROOT, folder), join(project, folder), { recursive: true })
  await writeFile(
    join(project, 'templates/content/Text.tsx'),
    'export default function Text() {\n  return <p>{</p>\n}\n',
  )
  busy = createServer()
  await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done))
  busyPort = (busy.address() as { port: number }).port
})

afterAll(async () => {
  await down?.close()
  await new Promise((done) => busy?.close(done))
  if (dir) await rm(dir, { recursive: true, force: true })
})

/** Runs the CLI as a GitHub Actions step: the annotation lines on stderr, the step summary written. */
async function inActions(
  args: string[],
  cwd = REPO_ROOT,
): Promise<CliRun & { summary: string; annotations: string[] }> {
  const summaryFile = join(await mkdtemp(join(dir, 'step-')), 'summary.md')
  const run = await runSite(args, { cwd, env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile } })
  const summary = await readFile(summaryFile, 'utf8').catch(() => '')
  const annotations = run.stderr.split('\n').filter((line) => line.startsWith('::'))
  return { ...run, summary, annotations }
}

const expectNoSecret = (run: CliRun & { summary: string }) => {
  for (const secret of SECRETS) {
    expect(run.stdout, secret).not.toContain(secret)
    expect(run.stderr, secret).not.toContain(secret)
    expect(run.summary, secret).not.toContain(secret)
  }
}

describe('site build stopped before its first page, in CI', () => {
  it.each([
    ['the CMS answers 500 for initial data', () => down.url],
    ['nothing listens on the API port', async () => `http://127.0.0.1:${await closedPort()}`],
  ])(
    '%s: JSON summary, annotation and step summary with the API origin, no credentials',
    async (_name, origin) => {
      const api = await origin()
      const config = await configFor('down', api)
      const run = await inActions(['build', '--config', config, '--out', join(dir, 'out'), '--json'])
      expect(run.code).toBe(1)
      const summary = JSON.parse(run.stdout) as FailedRunSummary
      expect(summary).toMatchObject({ ok: false, kind: 'INITIAL_DATA_UNAVAILABLE', api, exitCode: 1 })
      expect(summary.message).toMatch(/^Initial Data is unavailable: /)
      expect(run.stderr).toContain(summary.message)
      expect(run.annotations).toEqual([
        `::error title=site build%3A INITIAL_DATA_UNAVAILABLE::${summary.message}%0AAPI: ${api}; exit code 1; the previous output was left as it was`,
      ])
      expect(run.summary).toMatch(
        /^## site build: failed \(INITIAL\\_DATA\\_UNAVAILABLE\)\n\n> Initial Data is unavailable: /,
      )
      expect(run.summary).toContain(`API: ${api}; exit code 1`)
      expectNoSecret(run)
    },
    60_000,
  )

  it('templates that do not compile: exit 2, TEMPLATES_INVALID with file and line', async () => {
    const run = await inActions(['build', '--api', down.url, '--out', join(dir, 'out-t'), '--json'], project)
    expect(run.code).toBe(2)
    const summary = JSON.parse(run.stdout) as FailedRunSummary
    expect(summary).toMatchObject({ ok: false, kind: 'TEMPLATES_INVALID', exitCode: 2, api: down.url })
    expect(summary.message).toContain('Templates failed to compile:\n  templates/content/Text.tsx:2:')
    expect(run.annotations).toHaveLength(1)
    expect(run.annotations[0]).toMatch(
      /^::error title=site build%3A TEMPLATES_INVALID::Templates failed to compile:%0A {2}templates\/content\/Text\.tsx:2:/,
    )
    expect(run.summary).toContain('> templates/content/Text.tsx:2:')
  }, 60_000)

  it.each([
    ['an invalid config', (file: string) => ['--config', file], 'CONFIG_INVALID', /^Invalid configuration in /],
    ['a missing config', () => ['--config', join(dir, 'none.json')], 'CONFIG_NOT_FOUND', /^Config file not found: /],
    ['an unknown flag', () => ['--bogus'], 'USAGE', /^unknown option '--bogus'$/],
    ['a bad flag value', () => ['--concurrency', 'many'], 'CONFIG_INVALID', /--concurrency/],
    ['an output folder of something else', () => ['--out', project], 'OUT_DIR_NOT_SITE_OUTPUT', /^Refusing to build/],
    [
      'an output folder under a file',
      (file: string) => ['--out', join(file, 'out')],
      'OUT_DIR_UNWRITABLE',
      /^Cannot build into .*invalid\.json\/out: .*invalid\.json is a file, not a folder$/,
    ],
  ])(
    '%s: exit 2 with its kind on stdout and in the annotation',
    async (_name, flags, kind, message) => {
      const invalid = join(dir, 'invalid.json')
      await writeFile(invalid, JSON.stringify({ api: { baseUrl: 42 } }))
      const run = await inActions(['build', '--api', down.url, ...flags(invalid), '--json'])
      expect(run.code).toBe(2)
      const summary = JSON.parse(run.stdout) as FailedRunSummary
      expect(summary).toMatchObject({ ok: false, kind, exitCode: 2 })
      expect(summary.message).toMatch(message)
      expect(run.annotations).toHaveLength(1)
      expect(run.annotations[0]).toMatch(new RegExp(`^::error title=site build%3A ${kind}::`))
      expect(run.summary).toMatch(new RegExp(`^## site build: failed \\(${kind.replace(/_/g, '\\\\_')}\\)\n`))
    },
    60_000,
  )

  it('outside GitHub Actions: the same JSON and stderr lines, no annotation', async () => {
    const config = await configFor('plain', down.url)
    const run = await runSite(['build', '--config', config, '--out', join(dir, 'out'), '--json'])
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, kind: 'INITIAL_DATA_UNAVAILABLE', api: down.url })
    expect(run.stderr).not.toMatch(/^::/m)
    expectNoSecret({ ...run, summary: '' })
  }, 60_000)
})

describe('the other commands stopped, in CI', () => {
  it.each([
    [
      'preview on a port in use',
      () => ['preview', '--api', down.url, '--port', String(busyPort)],
      'site preview',
      'USAGE',
      2,
    ],
    ['serve of a missing folder', () => ['serve', join(dir, 'none')], 'site serve', 'USAGE', 2],
    ['demo-api with a bad fault', () => ['demo-api', '--fail', 'nonsense'], 'site demo-api', 'USAGE', 2],
    ['demo-api on a port in use', () => ['demo-api', '--port', String(busyPort)], 'site demo-api', 'USAGE', 2],
    ['preview with an unknown flag', () => ['preview', '--bogus'], 'site preview', 'USAGE', 2],
    ['deploy to a bad target', () => ['deploy', 'nowhere:x'], 'site deploy', 'USAGE', 2],
    ['init into a file', () => ['init', join(REPO_ROOT, 'package.json')], 'site init', 'INIT_NOT_A_DIRECTORY', 2],
    [
      'publish with a bad deploy target',
      () => ['publish', '--api', down.url, '--port', '0', '--deploy', 'nowhere:x', '--state', join(dir, 'state')],
      'site publish',
      'USAGE',
      2,
    ],
    ['an unknown flag before any command', () => ['--bogus'], 'site', 'USAGE', 2],
  ])(
    '%s: exit code, stderr line, annotation and step summary',
    async (_name, args, title, kind, code) => {
      const run = await inActions(args())
      expect(run.code).toBe(code)
      expect(run.stdout).toBe('')
      expect(run.annotations).toHaveLength(1)
      expect(run.annotations[0]).toMatch(new RegExp(`^::error title=${title}%3A ${kind}::.+exit code ${code}$`))
      expect(run.summary).toMatch(new RegExp(`^## ${title}: failed \\(${kind.replaceAll('_', '\\\\_')}\\)\n`))
    },
    60_000,
  )
})
