/** Request checks shared by `site serve` and `site preview`: both answer GET and HEAD only, without bodies. */

const TEXT = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }

/** A short plain-text answer (`404 Not Found`-style bodies for errors, bots and machines). */
export const textResponse = (status: number, body: string, headers: Record<string, string> = {}): Response =>
  new Response(`${body}\n`, { status, headers: { ...TEXT, ...headers } })

/** True when the request carries (or announces) a body. */
const hasBody = (request: Request): boolean => {
  const length = request.headers.get('content-length')
  return request.body !== null || request.headers.has('transfer-encoding') || (length !== null && length.trim() !== '0')
}

/**
 * 405 for methods other than GET and HEAD, 400 for a body or (unless `pages` is set) an unreadable
 * path (bad percent-encoding); undefined when the request may proceed. `pages`: the paths are the site's
 * routes (preview), and a route that does not validate is a page not found, answered by the caller.
 */
export function checkRequest(request: Request, url: URL, options: { pages?: boolean } = {}): Response | undefined {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return textResponse(405, 'Method Not Allowed', { allow: 'GET, HEAD' })
  if (hasBody(request)) return textResponse(400, 'Bad Request: a GET or HEAD request has no body')
  if (options.pages) return undefined
  try {
    decodeURIComponent(url.pathname)
  } catch {
    return textResponse(400, 'Bad Request: malformed percent-encoding in the path')
  }
  return undefined
}

/** Drops the body of a HEAD answer, keeping status and headers. */
export const forMethod = (request: Request, response: Response): Response =>
  request.method === 'HEAD' && response.body
    ? new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers })
    : response
