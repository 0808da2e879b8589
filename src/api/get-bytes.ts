/**
 * One GET through undici's `request()`, its body collected as bytes: what the API client is built on.
 *
 * The deadline (`timeoutMs`) bounds the whole answer, headers and body together, as a signal that
 * lets the event loop read what arrived before it counts an answer late (undici's own timeouts only
 * bound the gap between two chunks). The size cap (`maxBytes`) refuses a declared `content-length`
 * before the body and stops reading a streamed body as soon as it passes the limit.
 */
import { type Dispatcher, request } from 'undici'

/** Thrown when an answer is larger than allowed; the client turns it into `API_TOO_LARGE`. */
export class BodyTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`answer larger than ${limitBytes} bytes`)
    this.name = 'BodyTooLarge'
  }
}

/** How a request ended early: its deadline passed, or the caller's signal aborted it. */
export class RequestEnded extends Error {
  constructor(readonly why: 'expired' | 'aborted') {
    super(why === 'expired' ? 'deadline passed' : 'aborted by the caller')
    this.name = 'RequestEnded'
  }
}

/**
 * Whether a request failed for want of time: its deadline passed, or undici's own headers or body timeout
 * (the gap between two chunks) ran out first.
 */
export function isExpired(cause: unknown): boolean {
  const code = (cause as { code?: unknown }).code
  return (
    (cause instanceof RequestEnded && cause.why === 'expired') ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  )
}

/**
 * A network failure in a few words: the system's code (`ECONNRESET`), or undici's own code with its message,
 * which tells what its code does not (`UND_ERR_SOCKET: other side closed`); the message when there is no code.
 */
export function networkFailure(cause: unknown): string {
  const { code, message } = cause as { code?: unknown; message?: unknown }
  if (typeof code !== 'string') return String(message)
  return code.startsWith('UND_ERR_') && typeof message === 'string' && message !== '' ? `${code}: ${message}` : code
}

/** Request headers by lower-case name, so that one set after them (`accept`) replaces a caller's `Accept`, not joins it. */
export const lowerCaseNames = (headers: Readonly<Record<string, string>> = {}): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))

export interface GetOptions {
  headers: Record<string, string>
  /** The deadline for the whole answer, in milliseconds. */
  timeoutMs: number
  maxBytes: number
  /** The caller's signal (a preview request's): aborting it ends the request. */
  signal?: AbortSignal
  /** The API client's connection pool. */
  dispatcher: Dispatcher
}

export interface GotBytes {
  status: number
  /**
   * Response headers, lower-case names, repeated ones joined with `, `; `set-cookie` ones with a line break
   * (a cookie may hold a comma, no header value a line break): `'a=1,2; Path=/\nb=3'`.
   */
  headers: Record<string, string>
  /** The body, in a buffer of its own (never a slice of a shared one): a build transfers it to a render worker. */
  body: Uint8Array
}

/** Headers with repeated values joined; absent ones left out. */
function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const name in headers) {
    const value = headers[name]
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value
  }
  return flat
}

/**
 * Stops reading an answer's body and closes its connection. undici reports a body destroyed before its
 * end as an 'error' event (RequestAbortedError) on the next turn; that is this drop, expected, and must
 * not reach the process as an unhandled error (it stopped `site preview`).
 */
function drop(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {})
  body.destroy()
}

/**
 * A signal that aborts `ms` from now, once the event loop has read what arrived by then: when this thread
 * was busy past the deadline (a long render), an answer waiting unread on its socket is not counted late.
 */
function deadlineAfter(ms: number): { deadline: AbortSignal; clear: () => void } {
  const controller = new AbortController()
  const expire = () => controller.abort(new DOMException('deadline passed', 'TimeoutError'))
  // a timer runs before the turn's reads; an immediate after them
  const timer = setTimeout(() => setImmediate(expire), ms)
  return { deadline: controller.signal, clear: () => clearTimeout(timer) }
}

/**
 * GETs `url`. Resolves with any HTTP answer; rejects with the network error, `RequestEnded`
 * (deadline or caller) or `BodyTooLarge`. Example: getBytes('http://127.0.0.1:4000/pl/o-nas', …)
 * -> { status: 200, headers: { 'content-type': 'application/json' }, body: <bytes> }.
 */
export async function getBytes(url: string, options: GetOptions): Promise<GotBytes> {
  const { timeoutMs, maxBytes, signal } = options
  const { deadline, clear } = deadlineAfter(timeoutMs)
  const ended = (): RequestEnded | undefined =>
    deadline.aborted ? new RequestEnded('expired') : signal?.aborted ? new RequestEnded('aborted') : undefined
  try {
    const answer = await request(url, {
      method: 'GET',
      headers: options.headers,
      dispatcher: options.dispatcher,
      signal: signal ? AbortSignal.any([deadline, signal]) : deadline,
      // the deadline bounds the answer; undici's own 300 s defaults must not cut a longer one
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    })
    const headers = flattenHeaders(answer.headers)
    if (Number(headers['content-length']) > maxBytes) {
      drop(answer.body)
      throw new BodyTooLarge(maxBytes)
    }
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of answer.body as AsyncIterable<Buffer>) {
      size += chunk.byteLength
      if (size > maxBytes) {
        drop(answer.body)
        throw new BodyTooLarge(maxBytes)
      }
      chunks.push(chunk)
    }
    // one buffer of its own (Buffer.concat of one chunk may return a slice of undici's)
    const body = new Uint8Array(size)
    let at = 0
    for (const chunk of chunks) {
      body.set(chunk, at)
      at += chunk.byteLength
    }
    return { status: answer.statusCode, headers, body }
  } catch (error) {
    throw error instanceof BodyTooLarge ? error : (ended() ?? error)
  } finally {
    clear()
  }
}
