/**
 * A template that does not compile stops `site build` with one code, one
 * message naming the file and line, and exit 2, every time: whichever bundle (browser or render
 * workers) meets it first, and whatever the API does meanwhile (here: refuses connections).
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { REPO_ROOT } from './build-helpers.js'
import { runSite } from './cli-helpers.js'
import { closedPort } from './ports.js'

const RUNS = 5
const BROKEN = 'export default function Text() {\n  const x =\n  return <p>{x</p>\n}\n'
/** A newcomer's template: a component, but exported by name. */
const NAMED_ONLY = 'export function Text() {\n  return <p>text</p>\n}\n'

let api: DemoApi
let project: string
let namedOnly: string
/** A loopback origin nothing listens on: every API request is refused at once. */
let refusing: string

beforeAll(async () => {
  api = await startDemoApi({ port: 0 })
  refusing = `http://127.0.0.1:${await closedPort()}`
  project = await mkdtemp(join(tmpdir(), 'site-broken-templates-'))
  for (const dir of ['templates', 'config', 'public'])
    await cp(join(REPO_ROOT, dir), join(project, dir), { recursive: true })
  await writeFile(join(project, 'templates/content/Text.tsx'), BROKEN)
  namedOnly = await mkdtemp(join(tmpdir(), 'site-named-template-'))
  for (const dir of ['templates', 'config', 'public'])
    await cp(join(REPO_ROOT, dir), join(namedOnly, dir), { recursive: true })
  await writeFile(join(namedOnly, 'templates/content/Text.tsx'), NAMED_ONLY)
})

afterAll(async () => {
  await api?.close()
  if (project) await rm(project, { recursive: true, force: true })
  if (namedOnly) await rm(namedOnly, { recursive: true, force: true })
})

describe('site build with a template that does not compile', () => {
  it.each([
    ['the API answers', () => api.url],
    ['the API refuses connections', () => refusing],
  ])(
    `exits 2 with the same message naming file and line, ${RUNS} runs out of ${RUNS}, when %s`,
    async (_name, apiUrl) => {
      const runs = []
      for (let i = 0; i < RUNS; i++)
        runs.push(await runSite(['build', '--api', apiUrl(), '--out', join(project, 'out')], { cwd: project }))
      for (const run of runs) {
        expect(run.code).toBe(2)
        expect(run.stderr).toContain('Templates failed to compile:\n  templates/content/Text.tsx:3:')
      }
      expect(new Set(runs.map((run) => run.stderr)).size).toBe(1)
    },
    120_000,
  )
})

describe('site build with a template that has no default export', () => {
  // It was told at a line and column of a module the engine generates (site-lazy-chunk:/abs/path/Text.tsx:4:10),
  // which the template's author never wrote, and said nothing of the missing `export default`.
  it('names the file and what is missing, the same whichever bundle meets it first', async () => {
    const runs = []
    for (let i = 0; i < 3; i++)
      runs.push(await runSite(['build', '--api', api.url, '--out', join(namedOnly, 'out')], { cwd: namedOnly }))
    for (const run of runs) {
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(
        'Templates failed to compile:\n  No matching export in "templates/content/Text.tsx" for import "default" (a template is the default export of its file: export default function …)',
      )
      expect(run.stderr).not.toMatch(/site-[a-z-]+:/)
    }
    expect(new Set(runs.map((run) => run.stderr)).size).toBe(1)
  }, 120_000)
})
