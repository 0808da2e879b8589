/**
 * One GET through undici's dispatcher, its body collected as bytes: what the API client
 * is built on. A build makes one per page (30,000 on a large site), so it talks to the
 * dispatcher's handler interface directly: no response stream, no abort signal, no
 * async iteration between the socket and the bytes. `request()` with a body stream cost
 * about twice the CPU per page (undici request + readable + AbortController per call).
 *
 * The deadline (`timeoutMs`) bounds the whole answer, headers and body together: undici's
 * own timeouts only bound the gap between two chunks (issue 13). The size cap
 * (`maxBytes`) refuses a declared `content-length` before the body and stops reading a
 * streamed body as soon as it passes the limit.
 */
import { Agent, type Dispatcher } from 'undici'

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

export interface GetOptions {
  headers: Record<string, string>
  /** The deadline for the whole answer, in milliseconds. */
  timeoutMs: number
  maxBytes: number
  /** The caller's signal (a preview request's): aborting it ends the request. */
  signal?: AbortSignal
  /** undici dispatcher (tests, keep-alive pools); the client's own Agent by default. */
  dispatcher?: Dispatcher
}

export interface GotBytes {
  status: number
  /** Response headers, lower-case names, repeated ones joined with `, `. */
  headers: Record<string, string>
  /** The body, in a buffer of its own (never a slice of a shared one): a build transfers it to a render worker. */
  body: Uint8Array
}

let apiAgent: Dispatcher | undefined
/**
 * The connection pool of API requests: an undici Agent of the client's own. Not undici's global
 * dispatcher: Node's built-in fetch installs its own (bundled, older) undici there when a process
 * first calls it, and that one does not take this handler interface.
 */
const sharedAgent = (): Dispatcher => {
  apiAgent ??= new Agent()
  return apiAgent
}

/** Headers with repeated values joined; absent ones left out. */
function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {}
  for (const name in headers) {
    const value = headers[name]
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return flat
}

/** Joins collected chunks into one buffer of its own. */
function joinChunks(chunks: readonly Buffer[], size: number): Uint8Array {
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return bytes
}

/**
 * GETs `url`. Resolves with any HTTP answer; rejects with the network error, `RequestEnded`
 * (deadline or caller) or `BodyTooLarge`. Example: getBytes('http://127.0.0.1:4000/pl/o-nas', …)
 * -> { status: 200, headers: { 'content-type': 'application/json' }, body: <bytes> }.
 */
export function getBytes(url: string, options: GetOptions): Promise<GotBytes> {
  const { timeoutMs, maxBytes, signal } = options
  const target = new URL(url)
  return new Promise<GotBytes>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined
    let ended: Error | undefined
    let status = 0
    let headers: Record<string, string> = {}
    const chunks: Buffer[] = []
    let size = 0

    const end = (reason: Error) => {
      ended ??= reason
      controller?.abort(ended)
    }
    const timer = setTimeout(() => end(new RequestEnded('expired')), timeoutMs)
    const onAbort = () => end(new RequestEnded('aborted'))
    const settle = () => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    }
    if (signal?.aborted) onAbort()
    else signal?.addEventListener('abort', onAbort, { once: true })

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started
        if (ended) started.abort(ended)
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        status = statusCode
        headers = flattenHeaders(responseHeaders)
        const declared = Number(headers['content-length'])
        if (declared > maxBytes) end(new BodyTooLarge(maxBytes))
      },
      onResponseData(_controller, chunk) {
        size += chunk.byteLength
        if (size > maxBytes) return end(new BodyTooLarge(maxBytes))
        chunks.push(chunk)
      },
      onResponseEnd() {
        settle()
        if (ended) reject(ended)
        else resolve({ status, headers, body: joinChunks(chunks, size) })
      },
      onResponseError(_controller, error) {
        settle()
        reject(ended ?? error)
      },
    }
    try {
      ;(options.dispatcher ?? sharedAgent()).dispatch(
        {
          origin: target.origin,
          path: `${target.pathname}${target.search}`,
          method: 'GET',
          headers: options.headers,
          // Not the deadline (they bound the gap between chunks), but undici's own 300 s defaults must not cut a longer one.
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        handler,
      )
    } catch (error) {
      settle()
      reject(error)
    }
  })
}
