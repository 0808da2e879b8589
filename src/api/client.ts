import { request, type Dispatcher } from 'undici'
import type { ResolvedSite } from '../config/types.js'
import { FetchError, errors } from '../errors.js'
import { FETCH_RETRY } from '../shared/constants.js'
import type { InitialData, PageData, RedirectData } from '../shared/types.js'
import { toInitialDataPath } from './initial-data-path.js'
import { filterQuery } from './query.js'

/** What a page request gives: a page, or a redirect record (contract 3.5). HTTP errors throw `FetchError`. */
export type PageResult =
  | { type: 'page'; data: PageData; status: number; headers: Record<string, string> }
  | { type: 'redirect'; redirectUrl: string; statusCode: number; headers: Record<string, string> }

export interface CallOptions {
  /** Extra request headers for this call (preview's proxied request headers). */
  headers?: Record<string, string>
  signal?: AbortSignal
}

export interface ApiClient {
  readonly baseUrl: string
  /** `GET {baseUrl}{path}` with the query filtered by `api.allowQuery`. */
  getPage(pathWithQuery: string, options?: CallOptions): Promise<PageResult>
  /** Initial data of a locale: the primary endpoint, then once the fallback; `Initial Data is unavailable: …` when both fail. */
  getInitialData(locale: string, route?: { path?: string; query?: URLSearchParams }, options?: CallOptions): Promise<{ data: InitialData; headers: Record<string, string> }>
}

export interface ApiClientOptions {
  /** undici dispatcher (tests, keep-alive pools); the global one by default. */
  dispatcher?: Dispatcher
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const flattenHeaders = (headers: Record<string, string | string[] | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(', ') : v]])))

const parseBody = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Creates the one API client of a site; build and preview both use it. No retry (SPEC point 7). */
export function createApiClient(site: ResolvedSite, options: ApiClientOptions = {}): ApiClient {
  const { baseUrl, headers: defaultHeaders, timeoutMs } = site.api
  void FETCH_RETRY // retry stays disabled; the statuses a retry would use are in constants.ts

  async function getJson(path: string, call: CallOptions = {}): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, string> }> {
    const url = `${baseUrl}${path.replace(/^\/{2,}/, '/')}`
    let res: Dispatcher.ResponseData
    let text: string
    try {
      res = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json', ...defaultHeaders, ...call.headers },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: call.signal,
        dispatcher: options.dispatcher,
      })
      text = await res.body.text()
    } catch (cause) {
      const err = cause as Error & { code?: string }
      const timedOut = err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT' || err.name === 'TimeoutError'
      throw new FetchError(timedOut ? 'API_TIMEOUT' : 'API_NETWORK', `${timedOut ? `no answer within ${timeoutMs} ms` : err.code ?? err.message} (GET ${url})`, {
        url,
        status: timedOut ? 504 : 502,
        cause,
      })
    }
    const headers = flattenHeaders(res.headers)
    const body = parseBody(text)
    if (res.statusCode < 200 || res.statusCode >= 300)
      throw new FetchError('API_HTTP', `HTTP ${res.statusCode} (GET ${url})`, { url, status: res.statusCode, data: body })
    if (!isObject(body)) {
      const type = headers['content-type'] ?? 'no content type'
      throw new FetchError('API_BAD_RESPONSE', `expected a JSON object, got ${typeof body === 'string' ? `unparsable ${type}` : 'another JSON value'} (GET ${url})`, {
        url,
        status: 502,
        data: body,
      })
    }
    return { status: res.statusCode, body, headers }
  }

  return {
    baseUrl,
    async getPage(pathWithQuery, call) {
      const { status, body, headers } = await getJson(filterQuery(pathWithQuery, site.api.allowQuery), call)
      if (typeof body.redirectUrl === 'string' && body.redirectUrl !== '') {
        const redirect = body as unknown as RedirectData
        const code = Number(redirect.statusCode)
        return { type: 'redirect', redirectUrl: redirect.redirectUrl, statusCode: code >= 300 && code < 400 ? code : 301, headers }
      }
      return { type: 'page', data: body as unknown as PageData, status, headers }
    },
    async getInitialData(locale, route = {}, call) {
      const pathFor = (endpoint: string) => toInitialDataPath({ endpoint, locale, i18n: site.i18n, routePath: route.path, routeQuery: route.query })
      try {
        const { body, headers } = await getJson(pathFor(site.api.endpoints.initialData), call)
        return { data: body as unknown as InitialData, headers }
      } catch {
        try {
          const { body, headers } = await getJson(pathFor(site.api.endpoints.initialDataFallback), call)
          return { data: body as unknown as InitialData, headers }
        } catch (cause) {
          const status = cause instanceof FetchError && cause.code === 'API_HTTP' ? cause.status : 500
          throw errors.initialDataUnavailable((cause as Error).message, status, cause)
        }
      }
    },
  }
}
