/**
 * Fetching a page payload (`{path}/_payload.json?_b=<clientVersion>`) and deciding
 * what the router does with the answer. Pure apart from the injected `fetch`.
 * A payload rendered for other client code than this tab's is refused (a full load);
 * one of another build with the same client code is rendered, with its own initial data.
 */

import { BUILD_ID_QUERY } from '../shared/client-constants.js'
import type { PagePayload } from '../shared/contract.js'
import type { PageData } from '../shared/types.js'
import { toPayloadUrl } from '../shared/url.js'
import { isRecord } from '../shared/values.js'

export type PagePayloadData = Extract<PagePayload, { page: PageData }>

export type PayloadResult =
  | { type: 'page'; payload: PagePayloadData }
  | { type: 'redirect'; to: string; statusCode: number }
  /**
   * Not something to render here: load the URL in full (404, not JSON or no page payload, a build with other client
   * code, the payload of another page, no answer in time: asking again would keep the visitor waiting as long once more).
   */
  | { type: 'full-load'; reason: 'not-found' | 'not-json' | 'other-client' | 'other-page' | 'timeout' }
  /** Network failure or server error: worth one retry. */
  | { type: 'error'; message: string }

/** `/pl/o-nas`, `c1` -> `/pl/o-nas/_payload.json?_b=c1` */
export const toPayloadRequestUrl = (path: string, clientVersion: string): string =>
  `${toPayloadUrl(path)}?${BUILD_ID_QUERY}=${encodeURIComponent(clientVersion)}`

/**
 * A page as every build writes it (`preparePage`): a numeric id, `meta`, `appearance` and `content` objects, each
 * content column a list of elements (objects). Anything else (`"page": {}`, a payload cut or edited by hand) would render an empty or
 * half page on the client where the page's HTML is right: it is loaded in full instead.
 */
function isPageData(value: unknown): value is PageData {
  return (
    isRecord(value) &&
    typeof value.id === 'number' &&
    isRecord(value.meta) &&
    isRecord(value.appearance) &&
    isRecord(value.content) &&
    Object.values(value.content).every((column) => Array.isArray(column) && column.every(isRecord))
  )
}

/**
 * A redirect target the client follows: a path of the site or an http(s) URL, as a build writes them. Anything else
 * in a payload (`javascript:`, `//host`, `/\host`, which browsers read as another host) was not written by a build:
 * the page is loaded in full, and the host answers it by its own rules.
 */
const isRedirectTarget = (to: unknown): to is string =>
  typeof to === 'string' && (/^\/(?![/\\])/.test(to) || /^https?:\/\/[^/\\]/i.test(to))

/** Checks the shape of a parsed payload; undefined when it is not one. */
function readPayload(body: unknown): PagePayload | undefined {
  if (
    !isRecord(body) ||
    typeof body.clientVersion !== 'string' ||
    typeof body.path !== 'string' ||
    typeof body.locale !== 'string'
  )
    return undefined
  if (isRecord(body.redirect)) return isRedirectTarget(body.redirect.to) ? (body as PagePayload) : undefined
  return isPageData(body.page) && typeof body.status === 'number' ? (body as PagePayload) : undefined
}

/** The rejection of a request its timeout gave up (`AbortSignal.timeout`, see createTimedFetch). */
const isTimeout = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'TimeoutError'

export async function fetchPayload(input: {
  path: string
  clientVersion: string
  fetch: (url: string, init: RequestInit) => Promise<Response>
  signal?: AbortSignal
}): Promise<PayloadResult> {
  let response: Response
  try {
    response = await input.fetch(toPayloadRequestUrl(input.path, input.clientVersion), {
      // Always asked of the host (a 304 when unchanged): one that sends no Cache-Control (nginx, S3 without
      // metadata) would have the browser keep an older build's payload for a tenth of its age.
      cache: 'no-cache',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      signal: input.signal,
    })
  } catch (error) {
    if (isTimeout(error)) return { type: 'full-load', reason: 'timeout' }
    return { type: 'error', message: error instanceof Error ? error.message : String(error) }
  }
  if (response.status === 404 || response.status === 410) return { type: 'full-load', reason: 'not-found' }
  if (!response.ok) return { type: 'error', message: `HTTP ${response.status}` }
  let body: unknown
  try {
    body = await response.json()
  } catch {
    return { type: 'full-load', reason: 'not-json' }
  }
  const payload = readPayload(body)
  if (!payload) return { type: 'full-load', reason: 'not-json' }
  if (payload.clientVersion !== input.clientVersion) return { type: 'full-load', reason: 'other-client' }
  // A build writes each payload at its page's path: another page's (a host or CDN rule answering one file for
  // every path) would show that page under this URL.
  if (payload.path !== input.path) return { type: 'full-load', reason: 'other-page' }
  if ('redirect' in payload)
    return { type: 'redirect', to: payload.redirect.to, statusCode: payload.redirect.statusCode }
  return { type: 'page', payload }
}
