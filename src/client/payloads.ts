/**
 * Fetching a page payload (`{path}/_payload.json?_b=<buildId>`) and deciding
 * what the router does with the answer. Pure apart from the injected `fetch`.
 */

import { BUILD_ID_QUERY } from '../shared/constants.js'
import type { PagePayload } from '../shared/contract.js'
import type { PageData } from '../shared/types.js'
import { toPayloadUrl } from '../shared/url.js'
import { isRecord } from '../shared/values.js'

export type PagePayloadData = Extract<PagePayload, { page: PageData }>

export type PayloadResult =
  | { type: 'page'; payload: PagePayloadData }
  | { type: 'redirect'; to: string; statusCode: number }
  /** Not something to render here: load the URL in full (404, not JSON, another build). */
  | { type: 'full-load'; reason: 'not-found' | 'not-json' | 'other-build' }
  /** Network failure or server error: worth one retry. */
  | { type: 'error'; message: string }

/** `/pl/o-nas`, `b1` -> `/pl/o-nas/_payload.json?_b=b1` */
export const toPayloadRequestUrl = (path: string, buildId: string): string =>
  `${toPayloadUrl(path)}?${BUILD_ID_QUERY}=${encodeURIComponent(buildId)}`

/** Checks the shape of a parsed payload; undefined when it is not one. */
export function readPayload(body: unknown): PagePayload | undefined {
  if (
    !isRecord(body) ||
    typeof body.buildId !== 'string' ||
    typeof body.path !== 'string' ||
    typeof body.locale !== 'string'
  )
    return undefined
  if (isRecord(body.redirect)) return typeof body.redirect.to === 'string' ? (body as PagePayload) : undefined
  return isRecord(body.page) && typeof body.status === 'number' ? (body as PagePayload) : undefined
}

export async function fetchPayload(input: {
  path: string
  buildId: string
  fetch: (url: string, init: RequestInit) => Promise<Response>
  signal?: AbortSignal
}): Promise<PayloadResult> {
  let response: Response
  try {
    response = await input.fetch(toPayloadRequestUrl(input.path, input.buildId), {
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      signal: input.signal,
    })
  } catch (error) {
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
  if (payload.buildId !== input.buildId) return { type: 'full-load', reason: 'other-build' }
  if ('redirect' in payload)
    return { type: 'redirect', to: payload.redirect.to, statusCode: payload.redirect.statusCode }
  return { type: 'page', payload }
}
