import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'

/**
 * The node:http <-> WHATWG fetch binding shared by `site serve` and
 * `site preview`: handlers are `(Request) => Promise<Response>` and never see
 * Node objects (so tests call them without a socket).
 */
export type FetchHandler = (request: Request) => Promise<Response>

const HOST_RE = /^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

/**
 * Converts an incoming request. The body is never read (both servers answer
 * only GET and HEAD; the handler refuses the rest from the method and the
 * headers); an aborted connection aborts `request.signal`.
 * Returns undefined when the request line cannot form a Request (bad URL,
 * or a method fetch forbids such as TRACE): the caller answers 400, or 405 to such a method
 * (CONNECT never comes here: see `refuseConnect`).
 */
function toRequest(req: IncomingMessage, signal: AbortSignal): Request | undefined {
  const target = req.url ?? '/'
  // A Host with a path or odd characters would change the URL the handler sees.
  if (req.headers.host !== undefined && !HOST_RE.test(req.headers.host)) return undefined
  try {
    // Origin-form targets are appended, never resolved, so `//evil.example/x` stays a path.
    const url = target.startsWith('/') ? new URL(`http://${req.headers.host ?? 'localhost'}${target}`) : new URL(target)
    const headers = new Headers()
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
    return new Request(url, { method: req.method ?? 'GET', headers, signal })
  } catch {
    return undefined
  }
}

/** Resolves when `res` can take more (or is gone): what keeps a slow client from piling the body up in memory. */
const writable = (res: ServerResponse): Promise<void> =>
  new Promise((done) => {
    const finish = () => {
      res.off('drain', finish)
      res.off('close', finish)
      done()
    }
    res.on('drain', finish)
    res.on('close', finish)
  })

/**
 * Writes a Response to Node, streaming its body (server-sent events included) at
 * the pace the client reads it; HEAD answers get no body. A body that fails half
 * way destroys the connection, so the client sees a cut answer, not a short one.
 */
async function writeResponse(res: ServerResponse, response: Response, method: string | undefined): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') headers[key] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length) headers['set-cookie'] = cookies
  res.writeHead(response.status, response.statusText || undefined, headers)
  if (method === 'HEAD' || !response.body) {
    await response.body?.cancel()
    res.end()
    return
  }
  res.flushHeaders()
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (res.destroyed) break
      if (!res.write(chunk)) await writable(res)
    }
  } catch (error) {
    res.destroy(error as Error)
    throw error
  }
  res.end()
}

const PLAIN_TEXT = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }

// Methods a fetch Request refuses to carry (and TRACK, which node's parser refuses before): well-formed requests
// all the same, refused as any other method but GET and HEAD (both servers answer only those), not as bad requests.
const FETCH_FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE'])

/**
 * The answer to a request line that forms no Request (see `toRequest`). `OPTIONS *` (asked of the server as a whole)
 * is well-formed too, and refused as OPTIONS on a path is.
 */
const unformedRequestAnswer = ({ method, url }: IncomingMessage): Response =>
  FETCH_FORBIDDEN_METHODS.has(method ?? '') || (method === 'OPTIONS' && url === '*')
    ? new Response('Method Not Allowed\n', { status: 405, headers: { ...PLAIN_TEXT, allow: 'GET, HEAD' } })
    : new Response('Bad Request\n', { status: 400, headers: PLAIN_TEXT })

/**
 * Answers CONNECT as `unformedRequestAnswer` answers TRACE (`allow`: the methods the server takes): node hands a CONNECT to a 'connect' listener, never
 * to the request listener, and without one closes the connection without an answer.
 */
export function refuseConnect(server: Server, allow = 'GET, HEAD'): void {
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    const body = 'Method Not Allowed\n'
    const headers = { ...PLAIN_TEXT, allow, 'content-length': String(body.length), connection: 'close' }
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\n${lines.join('')}\r\n${body}`)
  })
}

/** The whole binding: one node:http request listener around a fetch handler. */
export function toNodeListener(handler: FetchHandler, onError: (error: unknown) => void = () => {}) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const abort = new AbortController()
    res.on('close', () => abort.abort())
    req.resume() // drain any body so the connection stays usable
    void (async () => {
      const request = toRequest(req, abort.signal)
      const response = request ? await handler(request) : unformedRequestAnswer(req)
      await writeResponse(res, response, req.method)
    })().catch((error: unknown) => {
      onError(error)
      if (res.destroyed) return
      if (!res.headersSent) res.writeHead(500, PLAIN_TEXT)
      res.end(res.writableEnded ? undefined : 'Internal Server Error\n')
    })
  }
}
