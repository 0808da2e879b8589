import { SiteError } from '../errors.js'
import { decideHydration, preloadUrls } from '../hydration/plan.js'
import { renderDocument } from '../render/document.js'
import { renderPage } from '../render/render-page.js'
import type { BootState, ClientAssets, PageError, RenderState } from '../shared/contract.js'
import { RELOAD_EVENTS_URL } from '../shared/layout.js'
import { PREVIEW_BUILD_ID, type PreviewContext, type PreviewSite } from './context.js'
import { EMPTY_INITIAL_DATA } from './load-page.js'

/** One page (or error page) to render in preview mode: the render state's own fields, for one site. */
export type HtmlView = Pick<
  RenderState,
  'path' | 'locale' | 'status' | 'page' | 'initialData' | 'error' | 'editorPreview' | 'debug'
> & {
  target: PreviewSite
}

// The visitor's assets (template chunks included, so that the page preloads what it hydrates with) plus the editor's.
const joinAssets = (a: ClientAssets, b: ClientAssets): ClientAssets => ({
  ...a,
  scripts: [...a.scripts, ...b.scripts],
  styles: [...a.styles, ...b.styles],
  modulePreloads: [...(a.modulePreloads ?? []), ...(b.modulePreloads ?? [])],
})

function renderOnce(ctx: PreviewContext, view: HtmlView): { html: string; status: number } {
  const { target, ...fields } = view
  const state: RenderState = { ...fields, site: target.info, mode: 'preview' }
  const result = renderPage(state, ctx.registry)
  // Preview inlines initial data: it is live, there is no once-per-locale file to point at.
  const assets = view.editorPreview ? joinAssets(ctx.client.assets, ctx.client.editorAssets) : ctx.client.assets
  // How the main hydrates (editor preview: always `full`) and what the document preloads for it.
  const hydration = decideHydration(state, assets.templateChunks)
  const preloads = preloadUrls(assets, state, hydration)
  const boot: BootState = { buildId: PREVIEW_BUILD_ID, state, reloadEventsUrl: RELOAD_EVENTS_URL, hydration }
  return { html: renderDocument({ result, boot, assets, preloads }), status: result.status }
}

/**
 * Renders a page document. A template that throws is reported once on the
 * terminal and answered with the error page (500), or plain text when even
 * that fails: the server never goes down for a template bug.
 */
export function renderHtml(
  ctx: PreviewContext,
  view: HtmlView,
): { html: string; status: number } | { failure: string; status: number } {
  try {
    return renderOnce(ctx, view)
  } catch (cause) {
    const failure = new SiteError(
      'RENDER_FAILED',
      `Rendering ${view.path} failed: ${(cause as Error)?.message ?? String(cause)}`,
      { status: 500, cause },
    )
    ctx.log(`preview: ${failure.message}`)
    const error: PageError = view.debug
      ? { status: 500, message: failure.message, raw: { stack: (cause as Error)?.stack } }
      : { status: 500, message: failure.message }
    try {
      return renderOnce(ctx, { ...view, status: 500, page: null, error, initialData: EMPTY_INITIAL_DATA })
    } catch {
      return { failure: failure.message, status: 500 }
    }
  }
}
