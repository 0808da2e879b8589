/**
 * The publisher's HTTP routes as a function of a read request (method, path, headers, raw body) to an
 * answer, testable without a socket; server.ts binds it to node:http. Webhooks are answered 202 only
 * once their event is on disk; 401 for a bad signature or token, 400 for a malformed body, 413 over
 * PUBLISH_MAX_BODY_BYTES, 429 when the journal is behind, 503 when it cannot be written, while stopping, or while
 * too many bodies are being read. What the headers can refuse (a token, a signature header) is refused before the
 * body is read.
 */
import type { ResolvedPublish } from '../config/types.js'
import { isSiteError, messageOf } from '../errors.js'
import { type PublishRequest, parsePagesBody, parseTypo3Body } from './messages.js'
import type { Publisher } from './publisher.js'
import { findSigner, isBearer, isSignatureHeader } from './signature.js'
import { statusHtml } from './status.js'

/**
 * A raw body; 'too large' when it is larger than allowed, 'busy' when other requests' bodies being read take the
 * bytes it would need (PUBLISH_MAX_READING_BYTES): neither is read further.
 */
export type HookBody = Buffer | 'too large' | 'busy'

export interface HookRequest {
  method: string
  path: string
  headers: Readonly<Record<string, string | string[] | undefined>>
  /** Reads the body: asked only once the headers allow the request, so that one refused holds none of it. */
  body(): Promise<HookBody>
}

export interface HookAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

const HOOK_PATHS: readonly string[] = ['/hooks/typo3', '/hooks/pages', '/hooks/full']

/** The webhook paths a request can pass: `/hooks/typo3` with publish.webhooks, the others with publish.token. */
export const reachableHooks = (options: Pick<ResolvedPublish, 'webhooks' | 'token'>): string[] =>
  HOOK_PATHS.filter((path) => (path === '/hooks/typo3' ? options.webhooks.length > 0 : Boolean(options.token)))
/** What `GET` reads: the status (JSON, or HTML for a browser) and the health check. */
const READ_PATHS: ReadonlySet<string> = new Set(['/', '/status', '/status.json', '/healthz'])

const json = (status: number, value: unknown, headers: Record<string, string> = {}): HookAnswer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  body: `${JSON.stringify(value)}\n`,
})

/** A request URL as the log shows it: cut after 200 characters, as one the client chose (up to node's 16 KB of headers). */
export const shownUrl = (url: string): string =>
  url.length > 200 ? `${url.slice(0, 200)}… (${url.length} characters)` : url

const header = (h: HookRequest['headers'], name: string): string | undefined => {
  const value = h[name]
  return Array.isArray(value) ? value[0] : value
}

function parseJson(body: Buffer): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(body.toString('utf8')) as unknown }
  } catch (error) {
    return { error: `the body is not JSON: ${messageOf(error)}` }
  }
}

export function createHookHandler(input: {
  publisher: Publisher
  options: Pick<ResolvedPublish, 'webhooks' | 'token'>
  log: (line: string) => void
}): (request: HookRequest) => Promise<HookAnswer> {
  const { publisher, options, log } = input

  const refuse = (status: number, route: string, error: string, headers?: Record<string, string>): HookAnswer => {
    // one line an event, of no terminal control: a body's own line breaks (quoted by JSON.parse's error) are shown
    // as \n, its other control characters as \u001b
    const shown = error
      .replace(/\r?\n/g, '\\n')
      .replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    log(`${status} ${shownUrl(route)}: ${shown}`)
    return json(status, { error }, headers)
  }

  async function accept(route: string, request: PublishRequest | { error: string }, from: string) {
    if ('error' in request) return refuse(400, route, request.error)
    try {
      const event = await publisher.accept(request, from)
      return json(202, event ? { accepted: true, seq: event.seq } : { accepted: true, draft: true })
    } catch (error) {
      const status = isSiteError(error) ? error.status : 500
      const extra: Record<string, string> = status === 429 ? { 'retry-after': '1' } : {}
      log(`${status} ${route}: ${messageOf(error)}`)
      return json(status, { error: messageOf(error) }, extra)
    }
  }

  /**
   * 404 for a path the publisher does not serve, whatever the method. A webhook sent to a wrong URL (a CMS
   * configured with `/hooks/typo3/` or `/hook/typo3`) is logged, so that the operator sees where it went.
   */
  function notFound(request: HookRequest, path: string): HookAnswer {
    if (request.method === 'GET' || request.method === 'HEAD') return json(404, { error: 'not found' })
    return refuse(404, path, `not found: the webhooks are POST ${HOOK_PATHS.join(', ')}`)
  }

  /** The body of a request its headers allow, or the refusal of a body not read. */
  async function readBody(request: HookRequest, route: string): Promise<Buffer | HookAnswer> {
    const body = await request.body()
    if (body === 'too large') return refuse(413, route, 'the body is larger than 1 MB')
    if (body === 'busy')
      return refuse(503, route, 'too many webhook bodies are being read at once', { 'retry-after': '1' })
    return body
  }

  async function hook(request: HookRequest, route: string): Promise<HookAnswer> {
    // logged: a CMS whose webhook was set up with another method shows in the log, as one with a wrong URL does
    // (a HEAD is no webhook, but an uptime check's)
    if (request.method === 'HEAD') return json(405, { error: 'use POST' }, { allow: 'POST' })
    if (request.method !== 'POST') return refuse(405, route, `use POST, not ${request.method}`, { allow: 'POST' })
    if (!publisher.accepting) return refuse(503, route, 'the publisher is stopping')
    if (route === '/hooks/typo3') {
      if (options.webhooks.length === 0) return refuse(401, route, 'no publish.webhooks are configured')
      const signature = header(request.headers, 'webhook-signature')
      const unsigned = 'missing or wrong Webhook-Signature, or an unknown webhook'
      if (!isSignatureHeader(signature)) return refuse(401, route, unsigned)
      const body = await readBody(request, route)
      if (!Buffer.isBuffer(body)) return body
      const signer = findSigner(options.webhooks, signature, body)
      if (!signer) return refuse(401, route, unsigned)
      const parsed = parseJson(body)
      return accept(route, 'error' in parsed ? parsed : parseTypo3Body(parsed.value), `webhook ${signer.identifier}`)
    }
    if (!isBearer(options.token, header(request.headers, 'authorization')))
      return refuse(401, route, options.token ? 'missing or wrong bearer token' : 'no publish.token is configured')
    if (route === '/hooks/full') return accept(route, { kind: 'full', what: 'full build asked' }, route)
    const body = await readBody(request, route)
    if (!Buffer.isBuffer(body)) return body
    const parsed = parseJson(body)
    return accept(route, 'error' in parsed ? parsed : parsePagesBody(parsed.value), route)
  }

  return async (request) => {
    const path = request.path.split('?')[0] ?? ''
    if (HOOK_PATHS.includes(path)) return hook(request, path)
    if (!READ_PATHS.has(path)) return notFound(request, path)
    if (request.method !== 'GET' && request.method !== 'HEAD') return json(405, { error: 'use GET' }, { allow: 'GET' })
    if (path === '/healthz') {
      await publisher.retryJournal()
      return publisher.healthy
        ? json(200, { ok: true })
        : json(503, {
            ok: false,
            error: publisher.accepting ? 'the journal cannot be written' : 'not accepting events',
          })
    }
    const wantsHtml = path === '/' || (path === '/status' && /text\/html/.test(header(request.headers, 'accept') ?? ''))
    if (wantsHtml)
      return {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
        body: statusHtml(publisher.status()),
      }
    return json(200, publisher.status())
  }
}
