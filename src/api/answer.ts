/**
 * What an API answer means, from its bytes: pure, so that a render worker can read
 * a page answer itself (the build's thread hands the bytes over undecoded).
 */
import { FetchError } from '../errors.js'
import { DEFAULT_REDIRECT_STATUS, REDIRECT_STATUSES } from '../shared/constants.js'
import type { PageData, RedirectData } from '../shared/types.js'
import { isRecord } from '../shared/values.js'

/** A body's bytes as UTF-8 text, a BOM dropped (as `body.text()` does). */
export const decodeBody = (bytes: Uint8Array): string => new TextDecoder().decode(bytes)

/** The content coding of an answer (`gzip`, `br`…), lower-cased; undefined for none or `identity`. */
export function contentCoding(header: string | undefined): string | undefined {
  const coding = (header ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && part !== 'identity')
    .join(', ')
  return coding === '' ? undefined : coding
}

/** An API answer as it came over the wire. */
export interface RawAnswer {
  url: string
  status: number
  /** The body's bytes (UTF-8), in a buffer of their own: a build transfers them to the render worker that reads them. */
  body: Uint8Array
  headers: Record<string, string>
}

/** What a page request gives: a page, or a redirect record (answered with HTTP 200). */
export type PageResult =
  | { type: 'page'; data: PageData; status: number; headers: Record<string, string> }
  | { type: 'redirect'; redirectUrl: string; statusCode: number; headers: Record<string, string> }

/** The body as JSON, or the text itself when it is not JSON (kept for error data); `parsed` tells which. */
function parseBody(text: string): { body: unknown; parsed: boolean } {
  try {
    return { body: JSON.parse(text), parsed: true }
  } catch {
    return { body: text, parsed: false }
  }
}

/** The JSON object of a 2xx answer; throws API_HTTP for other statuses, API_BAD_RESPONSE for a body that is no JSON object. */
export function readJsonObject(answer: RawAnswer): Record<string, unknown> {
  const { url, status, headers } = answer
  const text = decodeBody(answer.body)
  const { body, parsed } = parseBody(text)
  if (status < 200 || status >= 300) {
    // a redirect of HTTP is not followed (it could lead off the API's host): where it points tells why
    const location = status < 400 ? headers.location : undefined
    const to = location ? `, a redirect to ${location.slice(0, 200)}, which is not followed` : ''
    // the answer's own status when it is an error's; another (999, a 3xx that is no redirect record) is a bad gateway
    throw new FetchError('API_HTTP', `HTTP ${status}${to} (GET ${url})`, {
      url,
      status: status >= 400 && status <= 599 ? status : 502,
      data: body,
    })
  }
  if (!isRecord(body)) {
    const type = headers['content-type'] ?? 'no content type'
    // the body is read as sent (the request asks for no coding): a compressed one is unparsable for that reason
    const coding = contentCoding(headers['content-encoding'])
    const encoded = coding ? ` with Content-Encoding ${coding.slice(0, 40)}, which is not decoded` : ''
    const got = parsed ? 'another JSON value' : text.trim() === '' ? 'an empty body' : `unparsable ${type}${encoded}`
    throw new FetchError('API_BAD_RESPONSE', `expected a JSON object, got ${got} (GET ${url})`, {
      url,
      status: 502,
      data: body,
    })
  }
  return body
}

/** A page answer: a redirect record when it has a `redirectUrl` (its status when `_redirects` takes it, else 301), a page otherwise. Throws as readJsonObject. */
export function readPageAnswer(answer: RawAnswer): PageResult {
  const body = readJsonObject(answer)
  const { headers } = answer
  if (typeof body.redirectUrl === 'string' && body.redirectUrl !== '') {
    const redirect = body as unknown as RedirectData
    // Number() of an object runs its `toString`/`valueOf`: a JSON object with its own `"toString": "x"` key throws.
    const raw = redirect.statusCode as unknown
    const code = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : Number.NaN
    return {
      type: 'redirect',
      redirectUrl: redirect.redirectUrl,
      statusCode: REDIRECT_STATUSES.has(code) ? code : DEFAULT_REDIRECT_STATUS,
      headers,
    }
  }
  return { type: 'page', data: body as unknown as PageData, status: answer.status, headers }
}
