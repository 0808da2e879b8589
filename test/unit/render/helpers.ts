/** Shared set-up of the render tests: the real templates, fixture files and render states. */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadTemplates } from '../../../src/hydration/node-registry.js'
import { prepareInitialData, preparePage } from '../../../src/render/prepare.js'
import { renderPage } from '../../../src/render/render-page.js'
import type { RenderResult, RenderState, TemplateRegistry } from '../../../src/shared/contract.js'
import type { ContentElement, InitialData, PageData } from '../../../src/shared/types.js'

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const FIXTURES = join(ROOT, 'test/fixtures')

export const readJson = (relativePath: string): unknown =>
  JSON.parse(readFileSync(join(FIXTURES, relativePath), 'utf8'))

export const tempDir = (): string => mkdtempSync(join(tmpdir(), 'site-render-test-'))

/** The project's templates, bundled once per test file (the cache under .site/ is git-ignored). */
export const loadRegistry = (): Promise<TemplateRegistry> =>
  loadTemplates(ROOT, { cacheDir: join(ROOT, '.site', 'test-templates') })

const EMPTY_INITIAL_DATA: InitialData = { navigation: [], i18n: [] }

export function makeState(overrides: Partial<RenderState> = {}): RenderState {
  return {
    site: {
      baseUrl: undefined,
      i18n: { default: 'en', locales: ['en', 'pl', 'de'] },
      gtmId: undefined,
      consentHost: undefined,
      i18nMiddleware: true,
    },
    mode: 'static',
    editorPreview: false,
    debug: false,
    path: '/',
    locale: 'en',
    status: 200,
    page: null,
    initialData: EMPTY_INITIAL_DATA,
    ...overrides,
  }
}

/** A prepared page around the given elements (colPos0 unless `columns` says otherwise). */
export function makePage(elements: unknown[], extra: Record<string, unknown> = {}): PageData {
  const { page, problems } = preparePage({
    id: 7,
    meta: { title: 'Test page' },
    appearance: { layout: 'layout-0', backendLayout: 'default' },
    content: { colPos0: elements },
    ...extra,
  })
  if (!page) throw new Error(`test page did not prepare: ${problems.join('; ')}`)
  return page
}

export function makeElement(
  type: string,
  content: Record<string, unknown>,
  extra: Partial<ContentElement> = {},
): ContentElement {
  return {
    id: 11,
    type,
    colPos: 0,
    appearance: { layout: 'default', frameClass: 'default', spaceBefore: '', spaceAfter: '' },
    content,
    ...extra,
  }
}

/** Renders elements on a page through prepare and the real templates. */
export function renderElements(
  registry: TemplateRegistry,
  elements: unknown[],
  state: Partial<RenderState> = {},
): RenderResult {
  return renderPage(makeState({ page: makePage(elements), ...state }), registry)
}

export const prepareInitial = (raw: unknown): InitialData => prepareInitialData(raw).data

/** The markup of `<main>` only: what content elements rendered. */
export const mainOf = (html: string): string => {
  const start = html.indexOf('<main')
  return start < 0 ? '' : html.slice(start, html.indexOf('</main>') + 7)
}
