/**
 * The render core as one object: what build workers and preview render with, and what
 * tests hand in as a stub. Build and preview never import a template by name.
 */
import type { DataProblem, RenderResult, RenderState, TemplateRegistry } from '../shared/contract.js'
import type { InitialData, PageData } from '../shared/types.js'
import type { DocumentInput, DocumentPart } from './document.js'

/** The render core's shapes: `problems` are data problems found and repaired, listed in the build report. */
/**
 * Runs a render that a thread able to end this one watches (`site build`'s and `site preview`'s main thread,
 * src/cli/render-watch.ts): what it renders, as RENDER_TIMEOUT names it (a path, `the 404 page (pl)`), and how
 * long it may run (build.renderTimeoutMs).
 */
export type RenderWatch = <T>(render: { what: string; timeoutMs: number }, run: () => T) => T

export interface PageRenderer {
  /** `page: null` when the value is not a page at all. */
  preparePage(raw: unknown): { page: PageData | null; problems: DataProblem[] }
  prepareInitialData(raw: unknown): { data: InitialData; problems: DataProblem[] }
  renderPage(state: RenderState): RenderResult
  /** The HTML document in parts (see renderDocumentParts). */
  renderDocumentParts(input: DocumentInput): DocumentPart[]
}

/**
 * The render core over a template registry. Imported on use, so that a build thread that
 * only coordinates render workers never loads React.
 */
export async function createRenderer(registry: TemplateRegistry): Promise<PageRenderer> {
  const [{ renderPage }, { renderDocumentParts }, { preparePage, prepareInitialData }] = await Promise.all([
    import('./render-page.js'),
    import('./document.js'),
    import('./prepare.js'),
  ])
  return { preparePage, prepareInitialData, renderPage: (state) => renderPage(state, registry), renderDocumentParts }
}

/** The render core with the templates of `root` (bundled for Node, see src/hydration/node-registry.ts). */
export async function loadRenderer(root: string): Promise<PageRenderer> {
  const { loadTemplates } = await import('../hydration/node-registry.js')
  return createRenderer(await loadTemplates(root))
}
