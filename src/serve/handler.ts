import { readFile, realpath, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { SERVE_MAX_REDIRECTS_BYTES } from '../shared/constants.js'
import { isContentHashedFile, NOT_FOUND_FILE, REDIRECTS_FILE } from '../shared/layout.js'
import { IMMUTABLE_CACHE, NO_CACHE } from './content-types.js'
import { checkRequest, forMethod, textResponse } from './http-checks.js'
import { matchRedirect, parseRedirects, type RedirectRule, withRequestQuery } from './redirects.js'
import { isReallyInside, joinInside, toSafeSegments } from './safe-path.js'
import { sendFile } from './send-file.js'

/**
 * Serves a built output folder as a static host would: `/a/b` and `/a/b/`
 * -> `a/b/index.html`; files as they are, streamed (see `sendFile` for ranges,
 * conditional requests and compression); `_redirects` honoured before files (the query passed on);
 * unknown paths -> the locale's `404.html` (`/pl/x` -> `pl/404.html`, else
 * `404.html`) with status 404. Nothing outside the folder is ever read, and
 * neither dotfiles (but `/.well-known/`) nor `_redirects` itself are served.
 * Every answer carries `X-Content-Type-Options: nosniff`.
 */
export interface StaticHandlerOptions {
  dir: string
}

/**
 * Cache policy of a served file (path relative to the folder, `/` separated): a file named by its
 * content hash (scripts, styles, initial data) never changes; every other file is revalidated.
 */
function cacheControlOf(relPath: string): string {
  return isContentHashedFile(relPath) ? IMMUTABLE_CACHE : NO_CACHE
}

/**
 * Paths a static host does not serve although the files exist: dotfiles and
 * dot-folders (`.env`, `.git/`), except under `/.well-known/`, and the
 * `_redirects` file itself (Cloudflare Pages and Netlify keep it to themselves).
 * Example: ['.well-known', 'security.txt'] -> false; ['pl', '.secret'] -> true.
 */
function isHiddenPath(segments: readonly string[]): boolean {
  if (segments.length === 1 && segments[0]!.toLowerCase() === REDIRECTS_FILE) return true
  return segments.some((segment, i) => segment.startsWith('.') && !(i === 0 && segment === '.well-known'))
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

  /**
   * The folder's real path, or undefined while it is missing: a build swaps its new output in by two renames,
   * and a request between them finds no folder. It answers 404 as any missing file, not 500.
   */
  const realRoot = (): Promise<string | undefined> => realpath(root).catch(() => undefined)

  /** True when `file` is inside the folder, symbolic links followed. */
  async function isServable(file: string): Promise<boolean> {
    const real = await realRoot()
    return real !== undefined && (await isReallyInside(real, file))
  }

  async function loadRedirects(): Promise<RedirectRule[]> {
    const file = join(root, REDIRECTS_FILE)
    const info = await isFile(file)
    // read through the same check as any file served: a link that leaves the folder is not followed
    if (!info || !(await isServable(file))) return []
    if (info.size > SERVE_MAX_REDIRECTS_BYTES)
      throw new Error(
        `${file} is ${info.size} bytes, over the limit of ${SERVE_MAX_REDIRECTS_BYTES}: its rules are not read`,
      )
    if (info.mtimeMs !== redirects.mtimeMs)
      redirects = { mtimeMs: info.mtimeMs, rules: parseRedirects(await readFile(file, 'utf8')) }
    return redirects.rules
  }

  /** A file inside the folder (symbolic links that leave it refused), or undefined. */
  async function sendInside(
    request: Request,
    segments: readonly string[],
    status: 200 | 404 = 200,
  ): Promise<Response | undefined> {
    const file = joinInside(root, segments)
    if (!file || !(await isServable(file))) return undefined
    return sendFile({ request, file, cacheControl: cacheControlOf(segments.join('/')), status })
  }

  async function notFound(request: Request, segments: readonly string[]): Promise<Response> {
    const first = segments[0]
    const candidates =
      first !== undefined && (segments.length > 1 || !first.includes('.')) && !isHiddenPath([first])
        ? [[first, NOT_FOUND_FILE], [NOT_FOUND_FILE]]
        : [[NOT_FOUND_FILE]]
    for (const candidate of candidates) {
      const page = await sendInside(request, candidate, 404)
      if (page) return page
    }
    return textResponse(404, 'Not Found')
  }

  async function answer(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const refused = checkRequest(request, url)
    if (refused) return refused
    const segments = toSafeSegments(url.pathname)
    if (!segments) return textResponse(400, 'Bad Request: path not allowed')
    const redirect = matchRedirect(await loadRedirects(), url.pathname)
    if (redirect)
      return new Response(null, {
        status: redirect.status,
        headers: { location: withRequestQuery(redirect.to, url.search), 'cache-control': NO_CACHE },
      })

    if (!isHiddenPath(segments)) {
      const asFile = segments.length && !url.pathname.endsWith('/') ? await sendInside(request, segments) : undefined
      if (asFile) return asFile
      const index = await sendInside(request, [...segments, 'index.html'])
      if (index) return index
    }
    return forMethod(request, await notFound(request, segments))
  }

  return async (request) => {
    const response = await answer(request)
    response.headers.set('x-content-type-options', 'nosniff')
    return response
  }
}
