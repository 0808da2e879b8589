import { errors } from '../errors.js'
import { pagePayloadJson, redirectPayload } from '../render/payload.js'
import { BUILD_ID_QUERY } from '../shared/client-constants.js'
import { liveInitialDataUrl } from '../shared/layout.js'
import { checkRedirectTarget } from '../shared/redirect-target.js'
import { fromPayloadUrl, getLocaleFromPath, normalizePagePath } from '../shared/url.js'
import { toApiRequestHeaders, toProxiedResponseHeaders } from './api-headers.js'
import { PREVIEW_BUILD_ID, type PreviewContext, type PreviewSite } from './context.js'
import { jsonResponse, jsonTextResponse } from './files.js'
import { loadPage, logServerError, toPageError } from './load-page.js'

/**
 * `{path}/_payload.json` for any path, live: the same `PagePayload` shape the
 * build writes, so client navigation works in preview as on the static site.
 * Undefined when the URL is not a payload URL.
 */
export async function servePayload(
  ctx: Pick<PreviewContext, 'apiWatch' | 'log'>,
  target: PreviewSite,
  request: Request,
  url: URL,
): Promise<Response | undefined> {
  const pagePath = fromPayloadUrl(url.pathname)
  if (pagePath === undefined) return undefined
  const checked = normalizePagePath(pagePath)
  if (!checked.ok) return jsonResponse(404, { status: 404, message: `Page Not Found: ${pagePath}` })
  const path = checked.path
  const locale = getLocaleFromPath(path, target.site.i18n)
  const query = new URLSearchParams(url.search)
  query.delete(BUILD_ID_QUERY)
  const search = query.size ? `?${query}` : ''

  const loaded = await loadPage({
    target,
    path,
    search,
    locale,
    headers: toApiRequestHeaders(request, target.site.api),
    withInitialData: false,
    debug: false,
    signal: request.signal,
  })
  ctx.apiWatch.saw(target.api.baseUrl, loaded.type === 'page' ? loaded.failure : undefined)
  if (loaded.type === 'page') logServerError(ctx, url.pathname, loaded)
  const headers = toProxiedResponseHeaders(loaded.apiHeaders, target.site.api)
  const base = { clientVersion: PREVIEW_BUILD_ID, locale, path }
  if (loaded.type === 'redirect') {
    const checked = checkRedirectTarget(loaded.to, target.site.baseUrl, path)
    if (checked.type === 'refused') {
      const error = errors.redirectRefused(loaded.to, checked.reason)
      logServerError(ctx, url.pathname, {
        status: error.status,
        error: toPageError(error, path, false),
        failure: error,
      })
      return jsonResponse(error.status, { status: error.status, message: error.message }, headers)
    }
    return jsonResponse(200, redirectPayload({ ...base, to: checked.to, statusCode: loaded.statusCode }), headers)
  }
  if (!loaded.page)
    return jsonResponse(loaded.status, { status: loaded.status, message: loaded.error?.message ?? 'Error' }, headers)
  const head = { ...base, status: loaded.status, initialDataUrl: liveInitialDataUrl(locale) }
  return jsonTextResponse(loaded.status, pagePayloadJson(head, JSON.stringify(loaded.page)), headers)
}
