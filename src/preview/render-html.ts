import { isSiteError, messageOf, SiteError } from '../errors.js'
import { assemblePage, type PageView } from '../render/assemble.js'
import { documentText } from '../render/document.js'
import { describeMissingTemplate } from '../render/missing-templates.js'
import { liveInitialDataUrl, RELOAD_EVENTS_URL } from '../shared/layout.js'
import { PREVIEW_BUILD_ID, type PreviewContext, type PreviewSite } from './context.js'
import { EMPTY_INITIAL_DATA } from './load-page.js'

/** One page (or error page) to render in preview mode, for one site. */
export type HtmlView = Omit<PageView, 'initialDataUrl'> & { target: PreviewSite }

/** The page through the one page assembly, in preview mode, watched (PreviewContext.watchRender). */
const renderOnce = (ctx: PreviewContext, view: HtmlView): { html: string; status: number } =>
  ctx.watchRender({ what: view.path, timeoutMs: view.target.site.build.renderTimeoutMs }, () => assembleOnce(ctx, view))

/** The page through the one page assembly, in preview mode: live initial data inlined, editor assets on `?pce=1`. */
function assembleOnce(ctx: PreviewContext, view: HtmlView): { html: string; status: number } {
  const { target, ...fields } = view
  const assembled = assemblePage(
    {
      renderer: ctx.renderer,
      mode: 'preview',
      site: target.info,
      clientVersion: PREVIEW_BUILD_ID,
      assets: ctx.client.assets,
      shell: ctx.shell,
      editorAssets: ctx.client.editorAssets,
      ...(ctx.client.previewAssets ? { previewAssets: ctx.client.previewAssets } : {}),
      // the version of this page: its stream tells it when pages are at another (a reload it missed)
      reloadEventsUrl: `${RELOAD_EVENTS_URL}?v=${ctx.builtAt}`,
    },
    { ...fields, initialDataUrl: liveInitialDataUrl(fields.locale) },
  )
  // Once per layout or type until templates change (a new context): the developer adds the file, or not.
  for (const missing of ctx.missingTemplates.add(view.path, assembled.fallbacks))
    ctx.log(`preview: note: ${describeMissingTemplate(missing, { count: false })}`)
  // A content element whose template threw is left out of the page: the terminal names the template's file and line.
  for (const problem of assembled.problems) if (problem.at) ctx.log(`preview: ${problem.message}`)
  return { html: documentText(assembled.document), status: assembled.status }
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
    // The render core's RENDER_FAILED already names the path and, when it can, the template's file and line.
    const failure =
      isSiteError(cause) && cause.code === 'RENDER_FAILED'
        ? cause
        : new SiteError('RENDER_FAILED', `Rendering ${view.path} failed: ${messageOf(cause)}`, { status: 500, cause })
    ctx.log(`preview: ${failure.message}`)
    const thrown = failure.cause ?? cause
    const error = view.debug
      ? {
          status: 500,
          message: failure.message,
          raw: { stack: thrown instanceof Error ? thrown.stack : String(thrown) },
        }
      : { status: 500, message: failure.message }
    try {
      return renderOnce(ctx, { ...view, status: 500, page: null, error, initialData: EMPTY_INITIAL_DATA })
    } catch {
      return { failure: failure.message, status: 500 }
    }
  }
}
