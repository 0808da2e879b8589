/**
 * A missing template is not silent. A content element type or backend layout the API
 * sends without a template of its own renders with `Default`; the build report has one note for
 * each (type, count, first page) and preview says so on the terminal, once. A locale without its
 * texts file shows another's labels, and the report says which.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildResult } from '../../src/build/types.js'
import { formatSummary } from '../../src/cli/report.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { bundleClient } from '../../src/hydration/bundle.js'
import { loadRenderer } from '../../src/render/renderer.js'
import type { TemplateRegistry } from '../../src/shared/contract.js'
import { toHtmlFile, toPayloadFile } from '../../src/shared/url.js'
import { buildSite, REPO_ROOT } from './build-helpers.js'
import { loadTestRegistry, makeHandler } from './preview-helpers.js'

let api: DemoApi
let root: string
let out: string
let result: BuildResult

/** Elements of `type` anywhere in a page's content (shortcuts included). */
function countType(value: unknown, type: string): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + countType(item, type), 0)
  if (typeof value !== 'object' || value === null) return 0
  const own = (value as { type?: unknown; id?: unknown }).type === type && 'id' in value ? 1 : 0
  return own + Object.values(value).reduce((n: number, item) => n + countType(item, type), 0)
}

beforeAll(async () => {
  // The demo project without the `text` content element and the `two_columns` layout.
  root = await mkdtemp(join(REPO_ROOT, '.site', 'test-missing-templates-'))
  for (const dir of ['templates', 'config', 'public'])
    await cp(join(REPO_ROOT, dir), join(root, dir), { recursive: true })
  await rm(join(root, 'templates/content/Text.tsx'))
  await rm(join(root, 'templates/layouts/TwoColumns.tsx'))
  await rm(join(root, 'templates/texts/en.ts'))
  out = join(await mkdtemp(join(tmpdir(), 'site-missing-templates-')), 'out')
  const [demo, renderer, client] = await Promise.all([
    startDemoApi({ port: 0 }),
    loadRenderer(root),
    bundleClient({ root, minify: true }),
  ])
  api = demo
  result = await buildSite({ apiUrl: api.url, outDir: out, tools: { renderer, bundleClient: async () => client } })
}, 120_000)

afterAll(async () => {
  await api?.close()
  await rm(root, { recursive: true, force: true })
  await rm(join(out, '..'), { recursive: true, force: true })
})

describe('a build with a content element type and a layout that have no template', () => {
  it('succeeds, and notes each once with its count and first page', async () => {
    expect(result.failures).toEqual([])
    // What the built pages hold: their data is in their payloads, what Default rendered in their HTML.
    const pagesWith = { text: [] as string[], custom_widget: [] as string[], two_columns: [] as string[] }
    let widgets = 0
    let defaultElements = 0
    for (const path of result.pages.paths) {
      const payload = JSON.parse(await readFile(join(out, toPayloadFile(path)), 'utf8'))
      if (countType(payload.page?.content, 'text') > 0) pagesWith.text.push(path)
      const n = countType(payload.page?.content, 'custom_widget')
      widgets += n
      if (n > 0) pagesWith.custom_widget.push(path)
      if (payload.page?.appearance?.backendLayout === 'two_columns') pagesWith.two_columns.push(path)
      const html = await readFile(join(out, toHtmlFile(path)), 'utf8')
      defaultElements += html.match(/class="ce ce-unknown"/g)?.length ?? 0
    }
    for (const paths of Object.values(pagesWith)) expect(paths.length).toBeGreaterThan(0)
    // The demo has a `custom_widget` element without a template of its own, on purpose.
    const [layout, widget, text] = result.missingTemplates
    expect(result.missingTemplates).toHaveLength(3)
    expect(layout).toEqual({
      kind: 'layout',
      name: 'two_columns',
      file: 'templates/layouts/TwoColumns.tsx',
      count: pagesWith.two_columns.length,
      firstPath: pagesWith.two_columns.sort()[0],
    })
    expect(widget).toEqual({
      kind: 'content',
      name: 'custom_widget',
      file: 'templates/content/CustomWidget.tsx',
      count: widgets,
      firstPath: pagesWith.custom_widget.sort()[0],
    })
    expect(text).toMatchObject({ kind: 'content', name: 'text', file: 'templates/content/Text.tsx' })
    expect(text?.firstPath).toBe(pagesWith.text.sort()[0])
    // Every element that Default rendered is counted (a Default layout leaves other columns out).
    expect((text?.count ?? 0) + (widget?.count ?? 0)).toBe(defaultElements)
    const summary = formatSummary(result)
    expect(summary).toContain(
      `Note: backend layout "two_columns" has no template (add templates/layouts/TwoColumns.tsx): ${layout?.count} pages rendered with Default, first on ${layout?.firstPath}`,
    )
    expect(summary).toContain(
      `Note: content element type "text" has no template (add templates/content/Text.tsx): ${text?.count} elements rendered with Default, first on ${text?.firstPath}`,
    )
    expect(summary.match(/has no template/g)).toHaveLength(3)
  })

  it('notes the locale whose texts file is missing, naming the one its pages show', async () => {
    expect(formatSummary(result)).toContain('Note: templates/texts/ has no en.ts: the en pages show the texts of de.ts')
    expect(formatSummary(result).match(/templates\/texts\//g)).toHaveLength(1)
    // the note tells the truth: the English home page has the German skip link
    expect(await readFile(join(out, toHtmlFile('/')), 'utf8')).toContain('Zum Inhalt springen')
  })
})

describe('preview with a content element type and a layout that have no template', () => {
  let cacheDir: string
  let registry: TemplateRegistry

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'site-missing-templates-preview-'))
    // The project's registry as it loads from the copy without Text.tsx and TwoColumns.tsx.
    const { loadTemplates } = await import('../../src/hydration/node-registry.js')
    registry = await loadTemplates(root, { cacheDir })
  }, 60_000)
  afterAll(() => rm(cacheDir, { recursive: true, force: true }))

  it('says so on the terminal, once per layout and type, naming the file to add', async () => {
    const lines: string[] = []
    const { handle } = await makeHandler({ apiUrl: api.url, registry, log: (line) => lines.push(line) })
    const get = (path: string) => handle(new Request(`http://localhost:3000${path}`))
    // The home page renders a `text` element; /case-studies has the two_columns layout.
    for (const path of ['/', '/', '/case-studies']) expect((await get(path)).status).toBe(200)
    expect(lines).toEqual([
      'preview: note: content element type "text" has no template (add templates/content/Text.tsx): rendered with Default on /',
      'preview: note: backend layout "two_columns" has no template (add templates/layouts/TwoColumns.tsx): rendered with Default on /case-studies',
    ])
  })

  it('stays quiet when every layout and type has its template', async () => {
    const lines: string[] = []
    const full = await loadTestRegistry(cacheDir)
    const { handle } = await makeHandler({ apiUrl: api.url, registry: full, log: (line) => lines.push(line) })
    for (const path of ['/', '/case-studies', '/pl']) await handle(new Request(`http://localhost:3000${path}`))
    expect(lines).toEqual([])
  })
})
