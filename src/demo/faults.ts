/**
 * Injected failures, so tests and benchmarks can see how the site tool copes
 * with a broken content API. Each kind imitates a real failure mode.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { SiteError } from '../errors.js'
import { ownValue } from '../shared/values.js'
import type { DemoUrl } from './paths.js'
import type { DemoEdit, DemoFault } from './types.js'

/** A fault's `path` that matches every request path. */
const ANY_PATH = '*'

/** What `--fail PATH=STATUS` accepts after `=`, and the fault kind each means. */
const FAULT_NAMES: Readonly<Record<string, DemoFault['kind']>> = {
  '404': 'status404',
  '500': 'status500',
  '503': 'status503',
  reset: 'reset',
  hang: 'hang',
  'malformed-json': 'malformed-json',
  html: 'html',
}

/** The query of initial data requests (the default `api.endpoints.initialData`, `/?type=834`). */
const INITIAL_DATA_QUERY = 'type=834'

/**
 * `site demo-api --fail PATH=STATUS`, for rehearsing a failure from the shell. The last `=` splits;
 * a query after `?` must be contained in the request's. Example: `/about-us=500` ->
 * `{ path: '/about-us', kind: 'status500' }`; `/pl?type=834=reset` -> Polish initial data reset.
 */
export function parseDemoFault(spec: string): DemoFault {
  const at = spec.lastIndexOf('=')
  const target = at > 0 ? spec.slice(0, at) : ''
  const name = spec.slice(at + 1)
  const kind = ownValue(FAULT_NAMES, name)
  const [path = '', query] = target.split(/\?(.*)/s)
  if (!kind || !(path === ANY_PATH || path.startsWith('/')))
    throw new SiteError(
      'USAGE',
      `--fail expects PATH=STATUS, PATH starting with / (or *) and STATUS one of ${Object.keys(FAULT_NAMES).join(', ')}; got ${JSON.stringify(spec)}`,
    )
  return query ? { path, query, kind } : { path, kind }
}

/** `--fail-initial[=STATUS]`: every initial data request of every locale fails (the build stops: Initial Data is unavailable). */
export function initialDataFault(status = '500'): DemoFault {
  if (!Object.hasOwn(FAULT_NAMES, status))
    throw new SiteError(
      'USAGE',
      `--fail-initial expects STATUS one of ${Object.keys(FAULT_NAMES).join(', ')}; got ${JSON.stringify(status)}`,
    )
  return parseDemoFault(`${ANY_PATH}?${INITIAL_DATA_QUERY}=${status}`)
}

/** `/about-us -> 500`, `* ?type=834 -> reset`: one line of the banner. */
export function describeDemoFault(fault: DemoFault): string {
  const name = Object.entries(FAULT_NAMES).find(([, kind]) => kind === fault.kind)?.[0] ?? fault.kind
  return `${fault.path}${fault.query ? `?${fault.query}` : ''} -> ${name}`
}

type UrlParts = Pick<DemoUrl, 'rawPath' | 'path' | 'rawQuery'>

/** True when a rule's path is `*` or equals the pathname (as sent or decoded) and its query, if any, is in the raw query. */
const matchesDemoRule = (rule: { path: string; query?: string }, url: UrlParts): boolean =>
  (rule.path === ANY_PATH || rule.path === url.rawPath || rule.path === url.path) &&
  (rule.query === undefined || url.rawQuery.includes(rule.query))

/** The first fault that matches the request (see matchesDemoRule). */
export function findDemoFault(faults: readonly DemoFault[], url: UrlParts): DemoFault | undefined {
  return faults.find((fault) => matchesDemoRule(fault, url))
}

/** A JSON answer with every matching edit applied, in order (see DemoEdit); a scheduled one only from its time. */
export function applyDemoEdits(edits: readonly DemoEdit[], url: UrlParts, body: string, now = Date.now()): string {
  return edits.reduce(
    (text, edit) =>
      matchesDemoRule(edit, url) && (edit.from ?? 0) <= now ? text.replaceAll(edit.find, edit.replace) : text,
    body,
  )
}

/** Seconds until the next scheduled edit of this answer (rounded up), as TYPO3's `max-age`; undefined for none. */
export function secondsToNextEdit(edits: readonly DemoEdit[], url: UrlParts, now = Date.now()): number | undefined {
  let next: number | undefined
  for (const edit of edits)
    if (edit.from !== undefined && edit.from > now && matchesDemoRule(edit, url))
      next = Math.min(next ?? edit.from, edit.from)
  return next === undefined ? undefined : Math.ceil((next - now) / 1000)
}

const JSON_TYPE = 'application/json; charset=utf-8'

const STATUS_FAULTS = {
  status500: [500, 'Internal Server Error (demo fault)'],
  status503: [503, 'Service Unavailable (demo fault)'],
  status404: [404, 'Not Found (demo fault)'],
} as const

/** Answers (or breaks) the response the way `kind` says. */
export function applyDemoFault(kind: DemoFault['kind'], req: IncomingMessage, res: ServerResponse): void {
  switch (kind) {
    case 'status500':
    case 'status503':
    case 'status404': {
      const [status, error] = STATUS_FAULTS[kind]
      const body = JSON.stringify({ error })
      res.writeHead(status, {
        'content-type': JSON_TYPE,
        'content-length': Buffer.byteLength(body),
        ...(status === 503 ? { 'retry-after': '1' } : {}),
      })
      res.end(body)
      return
    }
    case 'reset': {
      // A TCP reset where the platform supports it, else a plain close: the client sees a network error.
      const socket = req.socket as typeof req.socket & { resetAndDestroy?: () => void }
      if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy()
      else socket.destroy()
      return
    }
    case 'hang':
      // Headers and the start of a body, then nothing: only a client timeout ends this.
      res.writeHead(200, { 'content-type': JSON_TYPE })
      res.write('{"id":1,"type":"Standard","meta":{"title":"')
      return
    case 'malformed-json': {
      const body = '{"id":1,"type":"Standard","meta":{"title":"Broken'
      res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) })
      res.end(body)
      return
    }
    case 'html': {
      const body =
        '<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>We will be back soon</h1></body></html>'
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) })
      res.end(body)
      return
    }
  }
}
