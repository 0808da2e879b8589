/**
 * One CMS file fetched, with a conditional request when the previous build recorded its `ETag` or
 * `Last-Modified`: `304 Not Modified` sends no body. Bounded as API answers are: the deadline
 * (`api.timeoutMs`, headers and body together) and a size cap (`media.maxBytes`, declared or streamed).
 * The body is taken as sent, never decoded: the request asks for no content coding (`Accept-Encoding: identity`),
 * and an answer that has one anyway (a proxy that compresses whatever is asked) is refused rather than copied
 * compressed under the file's name.
 */
import type { Dispatcher } from 'undici'
import { contentCoding } from '../api/answer.js'
import { BodyTooLarge, getBytes, isExpired, lowerCaseNames, networkFailure } from '../api/get-bytes.js'
import type { MediaFailureKind } from '../errors.js'

export interface FetchFileOptions {
  timeoutMs: number
  maxBytes: number
  /** Validators of the copy the previous build took. */
  etag?: string
  lastModified?: string
  /** Headers sent with the request (the API's own, to the API's origin only). */
  headers?: Record<string, string>
  signal?: AbortSignal
  dispatcher: Dispatcher
}

export type FetchedFile =
  /** The validators a 304 sends are the file's as they are now (saved again with the same bytes: a later date). */
  | { type: 'unchanged'; etag?: string; lastModified?: string }
  | { type: 'body'; body: Uint8Array; contentType?: string; etag?: string; lastModified?: string }
  | { type: 'failed'; kind: MediaFailureKind; reason: string }

/** Response validators are kept only when they are short printable text (they go back as request headers). */
const validator = (value: string | undefined): string | undefined =>
  value !== undefined && value.length <= 256 && /^[\x20-\x7e]+$/.test(value) ? value : undefined

export async function fetchFile(url: string, options: FetchFileOptions): Promise<FetchedFile> {
  // the API's headers may name these in capitals (`Accept-Encoding`): in one case, they are replaced, not joined
  const headers: Record<string, string> = {
    ...lowerCaseNames(options.headers),
    accept: '*/*',
    'accept-encoding': 'identity',
  }
  if (options.etag) headers['if-none-match'] = options.etag
  if (options.lastModified) headers['if-modified-since'] = options.lastModified
  try {
    const answer = await getBytes(url, {
      headers,
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      signal: options.signal,
      dispatcher: options.dispatcher,
    })
    if (answer.status === 304 && (options.etag || options.lastModified)) {
      const etag = validator(answer.headers.etag)
      const lastModified = validator(answer.headers['last-modified'])
      return { type: 'unchanged', ...(etag && { etag }), ...(lastModified && { lastModified }) }
    }
    if (answer.status < 200 || answer.status >= 300) {
      // a redirect is not followed (it could lead off the hosts the media policy takes): where it points tells why
      const location = answer.status < 400 ? answer.headers.location : undefined
      const to = location ? `, a redirect to ${location.slice(0, 200)}, which the build does not follow` : ''
      return { type: 'failed', kind: 'MEDIA_HTTP', reason: `the file answered HTTP ${answer.status}${to} (GET ${url})` }
    }
    const coding = contentCoding(answer.headers['content-encoding'])
    if (coding)
      return {
        type: 'failed',
        kind: 'MEDIA_HTTP',
        reason: `the file answered with Content-Encoding ${coding.slice(0, 40)}, which the build does not decode (GET ${url})`,
      }
    return {
      type: 'body',
      body: answer.body,
      contentType: answer.headers['content-type'],
      etag: validator(answer.headers.etag),
      lastModified: validator(answer.headers['last-modified']),
    }
  } catch (cause) {
    if (cause instanceof BodyTooLarge)
      return {
        type: 'failed',
        kind: 'MEDIA_TOO_LARGE',
        reason: `the file is larger than ${cause.limitBytes} bytes (media.maxBytes), not read further (GET ${url})`,
      }
    const what = isExpired(cause)
      ? `no complete answer within ${options.timeoutMs} ms (api.timeoutMs)`
      : networkFailure(cause)
    return { type: 'failed', kind: 'MEDIA_NETWORK', reason: `${what} (GET ${url})` }
  }
}
