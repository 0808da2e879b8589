/**
 * Terminal-safe output and CI-native diagnostics, through the real CLI: CMS text reaches no line as a
 * control or a GitHub Actions command; every failure, skipped item and note gets a line on stderr
 * in every mode (also with --json, whose stdout a CI log may send to a file); under GitHub Actions
 * an annotation per failure and broken link, and a Markdown summary in $GITHUB_STEP_SUMMARY.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildSummary } from '../../src/cli/report.js'
import { runSite } from './cli-helpers.js'
import { type ScriptedApi, startScriptedApi } from './preview-helpers.js'

/** A redirect target a CMS editor (or attacker) typed: a line break, a workflow command, a terminal escape. */
const HOSTILE_TARGET = '/ok\n::error title=pwned::injected\u001b[2J ##[warning]old'
const page = (id: number, title: string, elements: unknown[] = []) => ({
  id,
  type: 'Standard',
  meta: { title },
  appearance: { backendLayout: 'default' },
  content: { colPos0: elements },
  i18n: [],
})

let api: ScriptedApi
let dir: string
let config: string

beforeAll(async () => {
  api = await startScriptedApi({
    '/?type=834': {
      body: {
        navigation: [
          {
            title: '::error::Home',
            link: '/',
            children: [
              { title: 'Careers', link: '/careers' },
              { title: 'Go', link: '/go' },
            ],
          },
        ],
        i18n: [],
      },
    },
    '/': {
      body: page(12, '::error::A title from the CMS', [
        { id: 34, type: 'text', content: { header: '##[error]x', bodytext: '<a href="/gone">gone</a>' } },
      ]),
    },
    '/ok': { body: page(13, 'OK') },
    '/go': { body: { redirectUrl: HOSTILE_TARGET, statusCode: 301 } },
  })
  dir = await mkdtemp(join(tmpdir(), 'site-ci-output-'))
  config = join(dir, 'site.config.json')
  await writeFile(config, JSON.stringify({ api: { baseUrl: api.url }, i18n: { default: 'en', locales: ['en'] } }))
})

afterAll(async () => {
  await api?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

const build = (flags: string[], env: Record<string, string> = {}) =>
  runSite(['build', '--config', config, '--out', join(dir, 'out'), ...flags], { env })

const lines = (text: string) => text.split('\n').filter((line) => line !== '')
/** What GitHub Actions' runner reads as a workflow command: `::` first after white space, or `##[` anywhere. */
const isWorkflowCommand = (line: string) => /^\s*::/.test(line) || line.includes('##[')

/** The lines this build must print on stderr, one per failure, skipped item and note. */
const EXPECTED_STDERR = [
  'error BROKEN_NAV_LINK /careers 404: the API answers 404 (linked from initial data (en)) [from initial data (en)]',
  'warning BROKEN_CONTENT_LINK /gone 404: the API answers 404 [from /; page uid 12; content element uid 34]',
  'warning REDIRECT_REFUSED /go -> /ok\\n::error title=pwned::injected\\x1b[2J ##\\x5bwarning]old: control character [from /go]',
  "note: baseUrl is not set: no sitemap.xml (its URLs must be absolute) and no Sitemap line in robots.txt (set baseUrl to the site's public origin)",
]

describe('site build output in CI', () => {
  it('prints no control and no workflow command from CMS text, and a line per item on stderr', async () => {
    const run = await build([])
    expect(run.code).toBe(1)
    for (const line of [...lines(run.stdout), ...lines(run.stderr)]) {
      expect(isWorkflowCommand(line), line).toBe(false)
      expect(line).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    }
    expect(lines(run.stderr)).toEqual(expect.arrayContaining(EXPECTED_STDERR))
    expect(run.stdout).toContain('/go -> /ok\\n::error title=pwned::injected\\x1b[2J ##\\x5bwarning]old')
  })

  it('with --json: the reasons on stderr too, the JSON on stdout with each kind', async () => {
    const run = await build(['--json'])
    expect(run.code).toBe(1)
    const summary = JSON.parse(run.stdout) as BuildSummary
    expect(summary.failures.map((f) => f.kind)).toEqual(['BROKEN_NAV_LINK'])
    expect(summary.skipped).toContainEqual(
      expect.objectContaining({ kind: 'BROKEN_CONTENT_LINK', item: '/gone', pageUid: 12, elementUid: 34 }),
    )
    expect(summary.skipped).toContainEqual(
      expect.objectContaining({ kind: 'REDIRECT_REFUSED', item: `/go -> ${HOSTILE_TARGET}` }),
    )
    expect(lines(run.stderr)).toEqual(expect.arrayContaining(EXPECTED_STDERR))
    for (const line of lines(run.stderr)) expect(isWorkflowCommand(line), line).toBe(false)
  })

  it('under GitHub Actions: one annotation per failure and broken link, and the step summary', async () => {
    const summaryFile = join(dir, 'step-summary.md')
    await writeFile(summaryFile, '# earlier step\n')
    const run = await build(['--json'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile })
    expect(run.code).toBe(1)
    expect(lines(run.stderr).filter(isWorkflowCommand)).toEqual([
      '::error title=site build%3A BROKEN_NAV_LINK::/careers 404: the API answers 404 (linked from initial data (en)) [from initial data (en)]',
      '::warning title=site build%3A BROKEN_CONTENT_LINK::/gone 404: the API answers 404 [from /; page uid 12; content element uid 34]',
    ])
    expect(lines(run.stderr)).toEqual(expect.arrayContaining(EXPECTED_STDERR))
    const markdown = await readFile(summaryFile, 'utf8')
    expect(markdown).toMatch(/^# earlier step\n## site build: failed, 1 failure\(s\)\n/)
    expect(markdown).toContain('| locale | pages |\n| --- | --- |\n| en | 1 |')
    expect(markdown).toContain('| BROKEN\\_NAV\\_LINK | /careers | 404 |')
    expect(markdown).toContain('| /gone | 404 | / | 12 | 34 |')
  })
})
