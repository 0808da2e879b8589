import { readFile, realpath } from 'node:fs/promises'
import { isSiteError } from '../errors.js'
import { prepareInitialData } from '../render/prepare.js'
import { contentTypeOf, IMMUTABLE_CACHE, NO_CACHE } from '../serve/content-types.js'
import { textResponse } from '../serve/http-checks.js'
import { isReallyInside, toSafeSegments } from '../serve/safe-path.js'
import { buildMetaUrl, LATEST_MANIFEST_URL, localeOfLiveInitialDataUrl, RELOAD_EVENTS_URL } from '../shared/layout.js'
import { publicMessage } from './api-errors.js'
import { toApiRequestHeaders } from './api-headers.js'
import { PREVIEW_BUILD_ID, type PreviewContext, type PreviewSite } from './context.js'

/** Preview's own files under `/_site/` and the project's `public/` folder. */

/** A JSON answer from JSON text (no-store unless the headers say otherwise). */
export const jsonTextResponse = (status: number, json: string, headers: HeadersInit = {}): Response => {
  const out = new Headers(headers)
  out.set('content-type', 'application/json; charset=utf-8')
  if (!out.has('cache-control')) out.set('cache-control', 'no-store')
  return new Response(json, { status, headers: out })
}

export const jsonResponse = (status: number, value: unknown, headers: HeadersInit = {}): Response =>
  jsonTextResponse(status, JSON.stringify(value), headers)

export async function serveInternal(
  ctx: PreviewContext,
  request: Request,
  url: URL,
  pickSite: (url: URL) => PreviewSite,
): Promise<Response> {
  const { pathname } = url
  if (pathname === RELOAD_EVENTS_URL) return ctx.events.connect(request.signal)
  const asset = ctx.assetFiles.get(pathname)
  if (asset !== undefined)
    return new Response(asset as BodyInit, {
      headers: { 'content-type': contentTypeOf(pathname), 'cache-control': IMMUTABLE_CACHE },
    })
  if (pathname === LATEST_MANIFEST_URL)
    return jsonResponse(200, { id: PREVIEW_BUILD_ID, timestamp: ctx.builtAt }, { 'cache-control': NO_CACHE })
  if (pathname === buildMetaUrl(PREVIEW_BUILD_ID))
    return jsonResponse(
      200,
      { id: PREVIEW_BUILD_ID, timestamp: ctx.builtAt, prerendered: [] },
      { 'cache-control': NO_CACHE },
    )
  const locale = localeOfLiveInitialDataUrl(pathname)
  if (locale !== undefined) return serveInitialData(ctx, { request, url, locale }, pickSite)
  return textResponse(404, '404 Not Found')
}

async function serveInitialData(
  ctx: PreviewContext,
  { request, url, locale }: { request: Request; url: URL; locale: string },
  pickSite: (url: URL) => PreviewSite,
): Promise<Response> {
  let target: PreviewSite
  try {
    target = pickSite(url)
  } catch (error) {
    if (!isSiteError(error)) throw error
    return jsonResponse(error.status, { status: error.status, message: error.message })
  }
  if (!target.site.i18n.locales.includes(locale))
    return jsonResponse(404, { status: 404, message: `Unknown locale: ${locale}` })
  try {
    const { data } = await target.api.getInitialData(
      locale,
      {},
      { headers: toApiRequestHeaders(request, target.site.api), signal: request.signal },
    )
    ctx.apiWatch.saw(target.api.baseUrl)
    return jsonResponse(200, prepareInitialData(data).data)
  } catch (error) {
    ctx.apiWatch.saw(target.api.baseUrl, error)
    const status = isSiteError(error) ? error.status : 500
    // Without the API's address: the API may be internal, its URL a secret of the network.
    return jsonResponse(status, { status, message: publicMessage(error) })
  }
}

/**
 * A file of `public/` (only files listed at load time, so nothing outside the folder); undefined when there is none.
 * `/sw.js/` names a folder, not the file: a static host (and `site serve`) answers it 404, so it is left to the
 * page route, as any path that is not a file.
 */
export async function servePublic(ctx: PreviewContext, url: URL): Promise<Response | undefined> {
  if (url.pathname.endsWith('/')) return undefined
  const segments = toSafeSegments(url.pathname)
  return segments?.length ? sendPublicFile(ctx, segments.join('/')) : undefined
}

/**
 * `public/<dir>/index.html` at `/<dir>` and `/<dir>/`, asked when the API has no page there: a build copies the
 * file to the same place and writes a page over it, so a static host serves it where the CMS has none.
 */
export async function servePublicIndex(ctx: PreviewContext, url: URL): Promise<Response | undefined> {
  const segments = toSafeSegments(url.pathname)
  return segments && sendPublicFile(ctx, [...segments, 'index.html'].join('/'))
}

/**
 * The listed file `rel` of `public/`. The listing saw a regular file there, but a link may stand in its place (or
 * in a folder's) since: a checkout, a sync, a change preview did not reload for (`--no-watch`). It is read only
 * when it still leads to a file inside the folder, as `site serve` checks.
 */
async function sendPublicFile(ctx: PreviewContext, rel: string): Promise<Response | undefined> {
  const file = ctx.publicFiles.get(rel)
  if (!file) return undefined
  const realDir = await realpath(file.slice(0, file.length - rel.length - 1)).catch(() => undefined)
  if (realDir === undefined || !(await isReallyInside(realDir, file))) return undefined
  try {
    return new Response(await readFile(file), {
      headers: { 'content-type': contentTypeOf(file), 'cache-control': NO_CACHE },
    })
  } catch {
    return undefined // removed since the last reload
  }
}
