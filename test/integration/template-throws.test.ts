/**
 * A template that throws while a page renders is named by file, line and column of its source (the
 * registry's source map), not by a line of the generated bundle: in the build's warning and failure
 * lines, in `site build --json`, and in preview's terminal and (with `?debug`) its error page.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildSummary } from '../../src/cli/report.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { loadTemplates } from '../../src/hydration/node-registry.js'
import { REPO_ROOT } from './build-helpers.js'
import { runSite } from './cli-helpers.js'
import { DEMO_OPTIONS, makeHandler } from './preview-helpers.js'

const TEXT = 'templates/content/Text.tsx'
/** A browser's user agent: a bot's gets no error page. */
const BROWSER = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
}
const LAYOUT = 'templates/layouts/Default.tsx'
/** Line 5 of the Text.tsx below, column 11: `new Error(…)`, where V8 places the throw. */
const TEXT_AT = `${TEXT}:5:11`
/** Thrown on every page but the 404 ones (which a build needs, or it stops): line 7, where `new` stands. */
const LAYOUT_THROW = "  if (!String(page.slug).endsWith('404')) throw new TypeError('layout broke')"
const LAYOUT_AT = `${LAYOUT}:7:${LAYOUT_THROW.indexOf('new') + 1}`

let api: DemoApi
let project: string

beforeAll(async () => {
  api = await startDemoApi({ port: 0 })
  project = await mkdtemp(join(tmpdir(), 'site-template-throws-'))
  for (const dir of ['templates', 'config', 'public'])
    await cp(join(REPO_ROOT, dir), join(project, dir), { recursive: true })
  await writeFile(
    join(project, TEXT),
    [
      '/** CType `text`, broken on purpose. */',
      "import type { ContentElementProps } from 'typo3-headless-site/runtime'",
      '',
      'export default function Text(props: ContentElementProps): never {',
      "    throw new Error('text broke ' + typeof props)",
      '}',
      '',
    ].join('\n'),
  )
})

afterAll(async () => {
  await api?.close()
  if (project) await rm(project, { recursive: true, force: true })
})

describe('a template that throws at render time', () => {
  it('site build: each skipped element names the template file and line, on stderr and in --json', async () => {
    const run = await runSite(['build', '--api', api.url, '--out', join(project, 'out'), '--json'], { cwd: project })
    expect(run.code).toBe(0)
    const summary = JSON.parse(run.stdout) as BuildSummary
    const thrown = summary.skipped.filter((item) => item.kind === 'ELEMENT_SKIPPED')
    expect(thrown.length).toBeGreaterThan(0)
    for (const item of thrown) {
      expect(item).toMatchObject({ template: TEXT_AT })
      expect(item.reason).toMatch(new RegExp(`its template threw: text broke object \\(at ${TEXT_AT}\\)$`))
    }
    const first = thrown[0]!
    expect(run.stderr).toContain(
      `warning ELEMENT_SKIPPED ${first.reason} [page uid ${first.pageUid}; content element uid ${first.elementUid}]`,
    )
    // the reason says where the element is, page path first: the line names the page once
    expect(first.reason.startsWith(`${first.item}: content element ${first.elementUid} `)).toBe(true)
    expect(run.stderr).not.toContain(`${first.item}: ${first.item}`)
  }, 120_000)

  it('site build: a layout that throws fails its pages with the layout file and line', async () => {
    const layout = join(project, LAYOUT)
    const good = await readFile(layout, 'utf8')
    await writeFile(
      layout,
      good.replace(
        'export default function DefaultLayout({ content, page }: LayoutProps) {\n',
        `export default function DefaultLayout({ content, page }: LayoutProps) {\n${LAYOUT_THROW}\n`,
      ),
    )
    try {
      const run = await runSite(['build', '--api', api.url, '--out', join(project, 'out2'), '--json'], {
        cwd: project,
      })
      expect(run.code).toBe(1)
      const summary = JSON.parse(run.stdout) as BuildSummary
      expect(summary.failures.length).toBeGreaterThan(0)
      for (const failure of summary.failures) {
        expect(failure.kind).toBe('RENDER_FAILED')
        expect(failure.reason).toBe(`Rendering ${failure.path} failed: layout broke (at ${LAYOUT_AT})`)
      }
      expect(run.stderr).toContain(`(at ${LAYOUT_AT})`)
    } finally {
      await writeFile(layout, good)
    }
  }, 120_000)

  it('site preview: the terminal names the template, and so does the error page with ?debug', async () => {
    const registry = await loadTemplates(project, { cacheDir: join(project, '.site', 'test-templates') })
    const lines: string[] = []
    const { handle } = await makeHandler({ apiUrl: api.url, registry, log: (line) => lines.push(line) })
    // The demo's text elements are on its 404 pages.
    const res = await handle(new Request('http://localhost:3000/no-such-page', { headers: BROWSER }))
    expect(res.status).toBe(404)
    await res.text()
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines)
      expect(line).toMatch(
        new RegExp(
          `^preview: /no-such-page: content element \\d+ \\(text\\) skipped, its template threw: text broke object \\(at ${TEXT_AT}\\)$`,
        ),
      )

    // The throwing Text template as the page's layout: outside a content element, the render fails.
    const throwing = { ...registry, layouts: { ...registry.layouts, Default: registry.content.Text as never } }
    const debugLines: string[] = []
    const debug = await makeHandler({
      apiUrl: api.url,
      registry: throwing,
      user: { ...DEMO_OPTIONS, features: { ...DEMO_OPTIONS.features, debug: true } },
      log: (line) => debugLines.push(line),
    })
    const page = await debug.handle(new Request('http://localhost:3000/about-us?debug=1', { headers: BROWSER }))
    expect(page.status).toBe(500)
    const html = await page.text()
    expect(html).toContain(`(at ${TEXT_AT})`)
    expect(debugLines.some((line) => line.includes(`failed: text`) && line.endsWith(`(at ${TEXT_AT})`))).toBe(true)
  }, 120_000)
})
