/**
 * A content API on 127.0.0.1 that misbehaves on some paths (those starting with the
 * behaviour's name, or listed in `paths`) and forwards the rest to an upstream
 * (the demo API) when one is given:
 * - `trickle`: headers at once, then a JSON body one byte every `trickleEveryMs`;
 * - `flood`: a chunked body of `floodBytes`, written as fast as the client reads it;
 * - `declared`: announces a `content-length` of `floodBytes`, then writes as `flood` does.
 * `sent` holds each path from its arrival, with how many body bytes it had written when its connection closed,
 * so a test can tell that the client stopped reading early.
 */
import { createServer, request as httpRequest, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pipeline, Readable } from 'node:stream'

export interface HostileApi {
  url: string
  /** Path -> body bytes written before the connection closed (or the body ended). */
  readonly sent: Map<string, { bytes: number; complete: boolean }>
  close(): Promise<void>
}

type Behaviour = 'trickle' | 'flood' | 'declared'

export interface HostileApiOptions {
  upstream?: string
  /** Exact request paths (with query, as sent) given a behaviour: `{ '/contact': 'trickle' }`. */
  paths?: Record<string, Behaviour>
  trickleEveryMs?: number
  floodBytes?: number
}

/** The JSON body `/trickle` sends, one byte at a time: a valid page once complete. */
export const TRICKLE_BODY = `{"id":1,"type":"Standard","meta":{"title":"Slow"},"pad":"${' '.repeat(40)}"}`

const CHUNK = Buffer.alloc(64 * 1024, 0x20)

/** `total` bytes in 64 KiB chunks; pipeline hands them to the socket only as fast as the client reads. */
function writeFlood(res: ServerResponse, total: number, record: (bytes: number) => void): void {
  function* chunks() {
    for (let written = 0; written < total; ) {
      const chunk = CHUNK.subarray(0, Math.min(CHUNK.length, total - written))
      written += chunk.length
      record(written)
      yield chunk
    }
  }
  pipeline(Readable.from(chunks()), res, () => {})
}

export async function startHostileApi(options: HostileApiOptions = {}): Promise<HostileApi> {
  const { trickleEveryMs = 100, floodBytes = 256 * 1024 * 1024 } = options
  const sent: HostileApi['sent'] = new Map()
  const server = createServer((req, res) => {
    const path = req.url ?? '/'
    const record = (bytes: number) => sent.set(path, { bytes, complete: false })
    record(0)
    res.on('finish', () => sent.set(path, { bytes: sent.get(path)?.bytes ?? 0, complete: true }))
    const behaviour =
      options.paths?.[path] ?? (['trickle', 'flood', 'declared'] as const).find((b) => path.startsWith(`/${b}`))
    if (behaviour === 'trickle') {
      res.writeHead(200, { 'content-type': 'application/json' })
      let at = 0
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer)
        res.write(TRICKLE_BODY[at++]!)
        record(at)
        if (at === TRICKLE_BODY.length) {
          clearInterval(timer)
          res.end()
        }
      }, trickleEveryMs)
      res.on('close', () => clearInterval(timer))
      return
    }
    if (behaviour === 'flood' || behaviour === 'declared') {
      const length = behaviour === 'declared' ? { 'content-length': String(floodBytes) } : {}
      res.writeHead(200, { 'content-type': 'application/json', ...length })
      writeFlood(res, floodBytes, record)
      return
    }
    if (!options.upstream) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
      return
    }
    const { host: _host, ...headers } = req.headers
    const forward = httpRequest(`${options.upstream}${path}`, { headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    forward.on('error', () => res.destroy())
    forward.end()
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections()
      }),
  }
}
