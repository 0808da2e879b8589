/**
 * The render core as the build uses it: one object, so that tests can hand
 * `build()` a stub and the build never imports a template by name.
 */
import type { DocumentInput } from '../render/document.js'
import type { RenderResult, RenderState } from '../shared/contract.js'
import type { InitialData, PageData } from '../shared/types.js'

/** The render core's shapes (src/render): `problems` are data problems found and repaired, listed in the build report. */
export interface PageRenderer {
  /** `page: null` when the value is not a page at all. */
  preparePage(raw: unknown): { page: PageData | null; problems: string[] }
  prepareInitialData(raw: unknown): { data: InitialData; problems: string[] }
  renderPage(state: RenderState): RenderResult
  renderDocument(input: DocumentInput): string
}

/**
 * The render core with the templates of `root`. Imported on use, so that a
 * main thread that only coordinates render workers never loads React.
 */
export async function loadRenderer(root: string): Promise<PageRenderer> {
  const [{ renderPage }, { renderDocument }, { preparePage, prepareInitialData }, { loadTemplates }] =
    await Promise.all([
      import('../render/render-page.js'),
      import('../render/document.js'),
      import('../render/prepare.js'),
      import('../hydration/node-registry.js'),
    ])
  const registry = await loadTemplates(root)
  return { preparePage, prepareInitialData, renderPage: (state) => renderPage(state, registry), renderDocument }
}
