/**
 * Injected failures, so tests and benchmarks can see how the site tool copes
 * with a broken content API. Each kind imitates a real failure mode.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { DemoUrl } from './paths.js'
import type { DemoEdit, DemoFault } from './types.js'

type UrlParts = Pick<DemoUrl, 'rawPath' | 'path' | 'rawQuery'>

/** True when a rule's path equals the pathname (as sent or decoded) and its query, if any, is in the raw query. */
export const matchesDemoRule = (rule: { path: string; query?: string }, url: UrlParts): boolean =>
  (rule.path === url.rawPath || rule.path === url.path) &&
  (rule.query === undefined || url.rawQuery.includes(rule.query))

/** The first fault that matches the request (see matchesDemoRule). */
export function findDemoFault(faults: readonly DemoFault[], url: UrlParts): DemoFault | undefined {
  return faults.find((fault) => matchesDemoRule(fault, url))
}

/** A JSON answer with every matching edit applied, in order (see DemoEdit). */
export function applyDemoEdits(edits: readonly DemoEdit[], url: UrlParts, body: string): string {
  return edits.reduce(
    (text, edit) => (matchesDemoRule(edit, url) ? text.replaceAll(edit.find, edit.replace) : text),
    body,
  )
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
