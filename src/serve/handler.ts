import { readFile, realpath, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { ASSETS_DIR, NOT_FOUND_FILE, REDIRECTS_FILE } from '../shared/layout.js'
import { compressBody } from './compress.js'
import { contentTypeOf, IMMUTABLE_CACHE, NO_CACHE } from './content-types.js'
import { checkRequest, forMethod, textResponse } from './http-checks.js'
import { matchRedirect, parseRedirects, type RedirectRule } from './redirects.js'
import { isReallyInside, joinInside, toSafeSegments } from './safe-path.js'

/**
 * Serves a built output folder as a static host would: `/a/b` and `/a/b/`
 * -> `a/b/index.html`; files as they are; `_redirects` honoured before files;
 * unknown paths -> the locale's `404.html` (`/pl/x` -> `pl/404.html`, else
 * `404.html`) with status 404. Nothing outside the folder is ever read.
 */
export interface StaticHandlerOptions {
  dir: string
}

/** Cache policy of a served file (path relative to the folder, `/` separated). */
export function cacheControlOf(relPath: string): string {
  return relPath.startsWith(`${ASSETS_DIR}/`) ? IMMUTABLE_CACHE : NO_CACHE
}

const isFile = async (file: string): Promise<{ size: number; mtimeMs: number } | undefined> => {
  try {
    const info = await stat(file)
    return info.isFile() ? info : undefined
  } catch {
    return undefined
  }
}

export function createStaticHandler(options: StaticHandlerOptions): (request: Request) => Promise<Response> {
  const root = resolve(options.dir)
  // `_redirects` is re-read when it changes, so a rebuild swapped in under the server is picked up.
  let redirects: { mtimeMs: number; rules: RedirectRule[] } = { mtimeMs: -1, rules: [] }

  async function loadRedirects(): Promise<RedirectRule[]> {
    const file = join(root, REDIRECTS_FILE)
    const info = await isFile(file)
    if (!info) return []
    if (info.mtimeMs !== redirects.mtimeMs)
      redirects = { mtimeMs: info.mtimeMs, rules: parseRedirects(await readFile(file, 'utf8')) }
    return redirects.rules
  }

  async function sendFile(
    request: Request,
    file: string,
    relPath: string,
    status = 200,
  ): Promise<Response | undefined> {
    const info = await isFile(file)
    if (!info || !(await isReallyInside(await realpath(root), file))) return undefined
    const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`
    const headers = { 'content-type': contentTypeOf(file), 'cache-control': cacheControlOf(relPath), etag }
    if (status === 200 && request.headers.get('if-none-match') === etag)
      return new Response(null, { status: 304, headers })
    if (request.method === 'HEAD')
      return new Response(null, { status, headers: { ...headers, 'content-length': String(info.size) } })
    const compressed = await compressBody(request, headers['content-type'], await readFile(file))
    return new Response(compressed.body, { status, headers: { ...headers, ...compressed.headers } })
  }

  async function notFound(request: Request, segments: readonly string[]): Promise<Response> {
    const candidates =
      segments.length > 1 || (segments.length === 1 && !segments[0]!.includes('.'))
        ? [[segments[0]!, NOT_FOUND_FILE], [NOT_FOUND_FILE]]
        : [[NOT_FOUND_FILE]]
    for (const candidate of candidates) {
      const file = joinInside(root, candidate)
      const page = file && (await sendFile(request, file, candidate.join('/'), 404))
      if (page) return page
    }
    return textResponse(404, 'Not Found')
  }

  return async (request) => {
    const url = new URL(request.url)
    const refused = checkRequest(request, url)
    if (refused) return refused
    const segments = toSafeSegments(url.pathname)
    if (!segments) return textResponse(400, 'Bad Request: path not allowed')
    const redirect = matchRedirect(await loadRedirects(), url.pathname)
    if (redirect)
      return new Response(null, {
        status: redirect.status,
        headers: { location: redirect.to, 'cache-control': NO_CACHE },
      })

    const relFile = segments.join('/')
    const asFile = segments.length && !url.pathname.endsWith('/') ? joinInside(root, segments) : undefined
    const fileAnswer = asFile && (await sendFile(request, asFile, relFile))
    if (fileAnswer) return fileAnswer
    const index = joinInside(root, [...segments, 'index.html'])
    const indexAnswer = index && (await sendFile(request, index, [...segments, 'index.html'].join('/')))
    if (indexAnswer) return indexAnswer
    return forMethod(request, await notFound(request, segments))
  }
}
