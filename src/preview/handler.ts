import { STATUS_CODES } from 'node:http'
import { isbot } from 'isbot'
import { selectSite } from '../config/resolve.js'
import type { ResolvedSite } from '../config/types.js'
import { errors, isSiteError } from '../errors.js'
import { prepareInitialData } from '../render/prepare.js'
import { checkRequest, forMethod, textResponse } from '../serve/http-checks.js'
import type { FetchHandler } from '../serve/node-http.js'
import type { PreviewProblem } from '../shared/contract.js'
import { escapeHtml } from '../shared/escape.js'
import { isEngineUrl, RELOAD_EVENTS_URL } from '../shared/layout.js'
import { checkRedirectTarget } from '../shared/redirect-target.js'
import { getLocaleFromPath, normalizePagePath } from '../shared/url.js'
import { toApiRequestHeaders, toProxiedResponseHeaders } from './api-headers.js'
import type { PreviewContext, PreviewSite } from './context.js'
import type { ReloadEvents } from './events.js'
import { serveInternal, servePublic, servePublicIndex } from './files.js'
import { createHostGuard } from './hosts.js'
import { EMPTY_INITIAL_DATA, loadPage, logServerError, toPageError } from './load-page.js'
import { servePayload } from './payload.js'
import { type HtmlView, renderHtml } from './render-html.js'

/**
 * `site preview` as a fetch handler: `(Request) => Promise<Response>`, no
 * socket needed. Every answer is live: the page and initial data are fetched
 * from the configured API for each request, and rendered by the same render
 * core as the build, in `preview` mode.
 */
export function createPreviewHandler(ctx: PreviewContext): FetchHandler {
  return async (request) => {
    try {
      return forMethod(request, await answer(ctx, request))
    } catch (error) {
      ctx.log(`preview: ${request.method} ${request.url}: ${(error as Error)?.stack ?? String(error)}`)
      // the catalogue's message, no further detail: the stack is the terminal's
      return forMethod(request, plainError(500, errors.routeMiddleware(error).message))
    }
  }
}

/**
 * Preview before its templates first load (it started over a template that does not compile, or throws as it
 * loads): every page is their problem, in the small page that reloads once a change fixes them. The host guard and
 * the request checks stay as they are.
 */
export function createProblemHandler(input: {
  sites: readonly ResolvedSite[]
  events: ReloadEvents
  problem: PreviewProblem
  log: (line: string) => void
}): FetchHandler {
  const guardHost = createHostGuard(input.sites, input.log)
  const { title, message, file, line, column, frame } = input.problem
  const text = [title, message, file && `${file}:${line}:${column}`, frame].filter(Boolean).join('\n\n')
  return async (request) => {
    const url = new URL(request.url)
    const refused = guardHost(request.headers.get('host') ?? url.host) ?? checkRequest(request, url, { pages: true })
    if (refused) return forMethod(request, refused)
    if (url.pathname === RELOAD_EVENTS_URL) return input.events.connect(request.signal)
    if (isBotRequest(request)) return forMethod(request, plainError(500, ''))
    const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }
    return forMethod(request, new Response(failureHtml(500, text), { status: 500, headers }))
  }
}

/** The site of a request: the one site, or by `Host` when several are configured. */
function pickSite(ctx: PreviewContext, request: Request, url: URL): PreviewSite {
  if (ctx.sites.length === 1) return ctx.sites[0]!
  const chosen = selectSite(
    ctx.sites.map((s) => s.site),
    request.headers.get('host') ?? url.host,
  )
  return ctx.sites.find((s) => s.site === chosen)!
}

const isBotRequest = (request: Request): boolean => isbot(request.headers.get('user-agent') ?? '')

/** Bots get a status and a plain line, never an error page. */
const plainError = (status: number, message: string): Response =>
  textResponse(status, `${status} ${STATUS_CODES[status] ?? 'Error'}${message ? `: ${message}` : ''}`)

async function answer(ctx: PreviewContext, request: Request): Promise<Response> {
  const url = new URL(request.url)
  // DNS rebinding: only the hosts preview is meant to be reached by.
  const wrongHost = ctx.guardHost(request.headers.get('host') ?? url.host)
  if (wrongHost) return wrongHost
  // a path that does not decode is a route that does not validate: 404, 'Page Not Found: {path}' (answerPage)
  const refused = checkRequest(request, url, { pages: true })
  if (refused) return refused
  if (isEngineUrl(url.pathname)) return serveInternal(ctx, request, url, (u) => pickSite(ctx, request, u))
  const file = await servePublic(ctx, url)
  if (file) return file

  let target: PreviewSite
  try {
    target = pickSite(ctx, request, url)
  } catch (error) {
    if (!isSiteError(error)) throw error
    if (isBotRequest(request)) return plainError(error.status, '')
    // several sites and a Host none has (`localhost`): which hosts there are, and how to pin one
    const how = error.hint ? `\n${error.hint}: open the preview by one of them, or start it with --site HOST` : ''
    return plainError(error.status, `${error.message}${how}`)
  }
  return (await servePayload(ctx, target, request, url)) ?? answerPage(ctx, request, url, target)
}

/** The HTML of one page path: the page, a redirect, or the error page (plain text for bots). */
async function answerPage(ctx: PreviewContext, request: Request, url: URL, target: PreviewSite): Promise<Response> {
  const checked = normalizePagePath(url.pathname)
  const path = checked.ok ? checked.path : url.pathname
  const locale = getLocaleFromPath(path, target.site.i18n)
  // Raw API errors and stack traces only when the one running preview asked for them.
  const debug = url.searchParams.has('debug') && target.site.features.debug
  const editorPreview =
    target.site.features.contentPreview && url.searchParams.get(target.site.preview.queryParam) === '1'
  const view: HtmlView = {
    target,
    path,
    locale,
    status: 200,
    page: null,
    initialData: EMPTY_INITIAL_DATA,
    editorPreview,
    debug,
  }
  const headers = toApiRequestHeaders(request, target.site.api)
  const bot = isBotRequest(request)

  if (!checked.ok) {
    if (bot) return plainError(404, '')
    // The error page still gets the locale's header and footer when initial data answers.
    const initial = await target.api
      .getInitialData(locale, {}, { headers, signal: request.signal })
      .catch((error: unknown) => void ctx.apiWatch.saw(target.api.baseUrl, error))
    const initialData = initial ? prepareInitialData(initial.data).data : EMPTY_INITIAL_DATA
    return htmlResponse(
      ctx,
      { ...view, status: 404, initialData, error: toPageError(errors.routeInvalid(url.pathname), path, debug) },
      new Headers(),
      bot,
    )
  }

  const loaded = await loadPage({
    target,
    path,
    search: url.search,
    locale,
    headers,
    withInitialData: true,
    debug,
    signal: request.signal,
  })
  ctx.apiWatch.saw(target.api.baseUrl, loaded.type === 'page' ? loaded.failure : undefined)
  if (loaded.type === 'page') logServerError(ctx, url.pathname, loaded)
  if (loaded.type === 'page' && loaded.status === 404) {
    const file = await servePublicIndex(ctx, url)
    if (file) return file
  }
  const proxied = toProxiedResponseHeaders(loaded.apiHeaders, target.site.api)
  if (loaded.type === 'redirect') {
    const redirect = checkRedirectTarget(loaded.to, target.site.baseUrl, path)
    if (redirect.type !== 'refused') {
      proxied.set('location', redirect.type === 'internal' ? keepPreviewQuery(redirect.to, url, target) : redirect.to)
      if (!proxied.has('cache-control')) proxied.set('cache-control', 'no-store')
      return new Response(null, { status: loaded.statusCode, headers: proxied })
    }
    const refusal = errors.redirectRefused(loaded.to, redirect.reason)
    const error = toPageError(refusal, path, debug)
    logServerError(ctx, url.pathname, { status: error.status, error, failure: refusal })
    if (bot) return plainError(502, '')
    return htmlResponse(ctx, { ...view, status: 502, initialData: loaded.initialData, error }, proxied, bot)
  }
  if (bot && loaded.status >= 400) return plainError(loaded.status, '')
  const { status, page, initialData, error } = loaded
  return htmlResponse(ctx, { ...view, status, page, initialData, ...(error ? { error } : {}) }, proxied, bot)
}

/**
 * A redirect within the site keeps the preview's own query (`?pce=1`, `?debug`), as a link followed in the tab
 * does: a shortcut page opened from the CMS's split view stays in editor preview. Example: `/old?pce=1`
 * redirected to `/new#top` -> `/new?pce=1#top`.
 */
function keepPreviewQuery(to: string, url: URL, target: PreviewSite): string {
  const at = to.indexOf('#')
  const [path, hash] = at < 0 ? [to, ''] : [to.slice(0, at), to.slice(at)]
  const query = new URLSearchParams(path.split('?')[1] ?? '')
  const kept = [target.site.preview.queryParam, 'debug']
    .filter((key) => url.searchParams.has(key) && !query.has(key))
    .map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(url.searchParams.get(key)!)}`)
  if (!kept.length) return to
  return `${path}${path.includes('?') ? '&' : '?'}${kept.join('&')}${hash}`
}

/**
 * When even the error page does not render (a header, footer or error page template throws), a
 * browser still gets a small HTML page: the failure, and the live reload that brings the tab back
 * once the template is fixed (plain text would leave it stuck until reloaded by hand). Bots get the status.
 */
function failureHtml(status: number, failure: string): string {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>
<body><main>
<h1>${escapeHtml(title)}</h1><pre style="white-space:pre-wrap">${escapeHtml(failure)}</pre>
<p>The terminal running site preview has the details. This page reloads when the templates change.</p>
</main>
<script>new EventSource(${JSON.stringify(RELOAD_EVENTS_URL)}).addEventListener('reload',()=>location.reload())</script>
</body></html>
`
}

function htmlResponse(ctx: PreviewContext, view: HtmlView, headers: Headers, bot: boolean): Response {
  const rendered = renderHtml(ctx, view)
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store')
  if ('failure' in rendered && bot) return plainError(rendered.status, '')
  headers.set('content-type', 'text/html; charset=utf-8')
  if ('failure' in rendered)
    return new Response(failureHtml(rendered.status, rendered.failure), { status: rendered.status, headers })
  return new Response(rendered.html, { status: rendered.status, headers })
}
