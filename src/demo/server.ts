/**
 * The bundled demo content API ("demo-api"): a TYPO3 EXT:headless stand-in on
 * node:http, serving demo/content (or a generated site) in en, pl and de.
 * Routing rules: routing.ts. Content layout: demo/README.md.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { SiteError } from '../errors.js'
import { listen } from '../serve/server.js'
import { loadDemoContent } from './content.js'
import { applyDemoEdits, applyDemoFault, findDemoFault, secondsToNextEdit } from './faults.js'
import { answerFile, type DemoFile, indexDemoFiles } from './files.js'
import { createGeneratedSource } from './generator.js'
import { parseDemoUrl } from './paths.js'
import { preparePhotos, withPhotoPages } from './photos.js'
import { answerDemoRequest } from './routing.js'
import type { DemoApi, DemoApiOptions, DemoEdit, DemoFault, DemoRequest, DemoSource } from './types.js'

export type { DemoApi, DemoApiOptions, DemoEdit, DemoFault, DemoRequest } from './types.js'

/** The request log keeps this many latest requests, so long benchmarks do not grow memory. */
const DEMO_REQUEST_LOG_LIMIT = 10_000
const DEMO_API_DEFAULT_HOST = '127.0.0.1'

/** `<package>/demo/content`, found from this file both in src/demo and in dist/demo. */
export const defaultDemoContentDir = (): string => fileURLToPath(new URL('../../demo/content/', import.meta.url))

interface ServerState {
  source: DemoSource
  files: ReadonlyMap<string, DemoFile>
  requests: DemoRequest[]
  faults: DemoFault[]
  edits: DemoEdit[]
  latencyMs: number
  url: string
}

const JSON_TYPE = 'application/json; charset=utf-8'
// A Host header we are willing to echo into publicUrl: a name or IPv4/IPv6 literal, optional port.
const HOST_RE = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

function checkDelay(ms: number): number {
  if (!Number.isFinite(ms) || ms < 0)
    throw new SiteError('USAGE', `Demo API latency must be a number of milliseconds >= 0, got ${ms}.`)
  return ms
}

/** Starts the demo API; resolves once it listens. */
export async function startDemoApi(options: DemoApiOptions = {}): Promise<DemoApi> {
  const port = options.port ?? 0
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new SiteError('USAGE', `Demo API port must be an integer from 0 to 65535, got ${port}.`)
  const host = options.host ?? DEMO_API_DEFAULT_HOST
  const contentDir = resolve(options.contentDir ?? defaultDemoContentDir())
  const state: ServerState = {
    ...(await loadSource(contentDir, options.generate, options.photos)),
    requests: [],
    faults: [...(options.faults ?? [])],
    edits: [],
    latencyMs: checkDelay(options.latencyMs ?? 0),
    url: '',
  }

  const server = createServer((req, res) => void handle(state, req, res))
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    else socket.destroy()
  })
  // A port in use is a usage error naming it, as for the other commands.
  await listen(server, host, port)
  state.url = `http://${urlHost(host)}:${(server.address() as AddressInfo).port}`

  return {
    url: state.url,
    requests: state.requests,
    setFaults(faults) {
      state.faults = [...faults]
    },
    setEdits(edits) {
      state.edits = [...edits]
    },
    setLatency(ms) {
      state.latencyMs = checkDelay(ms)
    },
    async reload() {
      Object.assign(state, await loadSource(contentDir, options.generate, options.photos))
    },
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done())
        server.closeAllConnections() // hanging and keep-alive connections too
      }),
  }
}

/** The answers' source and the files of a content folder: its pages, or a generated site. */
async function loadSource(
  contentDir: string,
  generate: DemoApiOptions['generate'],
  photos?: DemoApiOptions['photos'],
): Promise<Pick<ServerState, 'source' | 'files'>> {
  const loaded = await loadContentSource(contentDir, generate)
  if (!photos) return loaded
  const files = new Map([...loaded.files, ...(await preparePhotos(photos))])
  return { source: withPhotoPages(loaded.source, photos), files }
}

async function loadContentSource(
  contentDir: string,
  generate: DemoApiOptions['generate'],
): Promise<Pick<ServerState, 'source' | 'files'>> {
  const content = await loadDemoContent(contentDir)
  const source = generate
    ? createGeneratedSource({
        languages: content.source.languages,
        pagesPerLocale: generate.pagesPerLocale,
        everyKind: generate.everyKind,
        notFound: content.source.notFound,
        extras: content.initialData,
      })
    : content.source
  return { source, files: await indexDemoFiles(contentDir) }
}

/** The host part of the API url: wildcard addresses become loopback, IPv6 gets brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1'
  if (host === '::') return '[::1]'
  return host.includes(':') ? `[${host}]` : host
}

async function handle(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const arrivedAt = performance.now()
    const target = req.url ?? '/'
    const parsed = parseDemoUrl(target)
    const method = req.method ?? 'GET'
    state.requests.push({
      method,
      path: parsed.ok ? parsed.url.rawPath : (target.split('?')[0] ?? target),
      query: parsed.ok ? parsed.url.query : {},
      headers: { ...req.headers },
    })
    if (state.requests.length > DEMO_REQUEST_LOG_LIMIT)
      state.requests.splice(0, state.requests.length - DEMO_REQUEST_LOG_LIMIT)
    // The latency is the API's response time: the answer is built while it runs, not after it.
    const answer =
      parsed.ok && (method === 'GET' || method === 'HEAD')
        ? answerDemoRequest({
            source: state.source,
            files: state.files,
            url: parsed.url,
            origin: originOf(req, state.url),
          })
        : undefined
    const rest = state.latencyMs - (performance.now() - arrivedAt)
    // unref'd: once closed, a request still waiting out its latency does not hold the process (Ctrl-C ends it at once)
    if (rest > 0) await delay(rest, undefined, { ref: false })

    if (!parsed.ok) return send(res, 400, JSON_TYPE, JSON.stringify({ error: `Bad request: ${parsed.reason}` }))
    const fault = findDemoFault(state.faults, parsed.url)
    if (fault) return applyDemoFault(fault.kind, req, res)
    if (method === 'OPTIONS')
      return send(res, 204, undefined, '', {
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': '*',
      })
    if (!answer)
      return send(res, 405, JSON_TYPE, JSON.stringify({ error: `Method ${method} not allowed` }), {
        allow: 'GET, HEAD, OPTIONS',
      })

    const head = method === 'HEAD'
    if (answer.kind === 'file') {
      const { status, body, headers } = await answerFile(answer.file, {
        ifNoneMatch: req.headers['if-none-match'],
        ifModifiedSince: req.headers['if-modified-since'],
      })
      return status === 304
        ? sendNotModified(res, headers)
        : send(res, 200, answer.file.contentType, body, headers, head)
    }
    const json = answer.kind === 'json' && parsed.ok
    const now = Date.now()
    const body = json ? applyDemoEdits(state.edits, parsed.url, answer.body, now) : answer.body
    const maxAge = json ? secondsToNextEdit(state.edits, parsed.url, now) : undefined
    const headers: Record<string, string> = maxAge === undefined ? {} : { 'cache-control': `max-age=${maxAge}` }
    return send(res, answer.status, json ? JSON_TYPE : 'text/html; charset=utf-8', body, headers, head)
  } catch (error) {
    if (res.headersSent) res.destroy()
    else
      send(
        res,
        500,
        JSON_TYPE,
        JSON.stringify({ error: `Demo API failure: ${error instanceof Error ? error.message : String(error)}` }),
      )
  }
}

/** The origin the client used (`http://localhost:4000`), or the API url when the Host header is missing or odd. */
function originOf(req: IncomingMessage, fallback: string): string {
  const host = req.headers.host
  return host && HOST_RE.test(host) ? `http://${host}` : fallback
}

function sendNotModified(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(304, { 'cache-control': 'no-store', 'access-control-allow-origin': '*', ...headers })
  res.end()
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string | undefined,
  body: string | Buffer,
  headers: Record<string, string> = {},
  head = false,
): void {
  res.writeHead(status, {
    ...(contentType ? { 'content-type': contentType } : {}),
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'access-control-allow-origin': '*',
    ...headers,
  })
  res.end(head ? undefined : body)
}
