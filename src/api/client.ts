import { Agent, type Dispatcher } from 'undici'
import type { ResolvedSite } from '../config/types.js'
import { errors, FetchError } from '../errors.js'
import type { InitialData } from '../shared/types.js'
import { type PageResult, type RawAnswer, readJsonObject, readPageAnswer } from './answer.js'
import { BodyTooLarge, getBytes, isExpired, lowerCaseNames, networkFailure, RequestEnded } from './get-bytes.js'
import { toInitialDataPath } from './initial-data-path.js'
import { filterQuery, requestUrl } from './query.js'

export type { PageResult, RawAnswer } from './answer.js'

export interface CallOptions {
  /** Extra request headers for this call (preview's proxied request headers). */
  headers?: Record<string, string>
  signal?: AbortSignal
}

export interface ApiClient {
  readonly baseUrl: string
  /** The client's connection pool: other requests to the CMS (its files) share it. */
  readonly dispatcher: Dispatcher
  /** `GET {baseUrl}{path}` with the query filtered by `api.allowQuery` (and the base URL's own query kept). */
  getPage(pathWithQuery: string, options?: CallOptions): Promise<PageResult>
  /**
   * The same request, its 2xx answer unparsed (read it with `readPageAnswer`): the build
   * hands the text to a render worker. Other statuses throw `FetchError` as getPage does.
   */
  getPageAnswer(pathWithQuery: string, options?: CallOptions): Promise<RawAnswer>
  /**
   * Initial data of a locale: the primary endpoint, then once the fallback; `Initial Data is unavailable: …` when
   * both fail. With `features.initInitialData` off nothing is asked: empty initial data, for build and preview alike.
   */
  getInitialData(
    locale: string,
    route?: { path?: string; query?: URLSearchParams },
    options?: CallOptions,
  ): Promise<{ data: InitialData; headers: Record<string, string> }>
  /** Closes the client's own connections (a dispatcher handed in is its owner's to close). */
  close(): Promise<void>
}

export interface ApiClientOptions {
  /** undici dispatcher (tests, a builder's pool); by default an Agent of the client's own, closed by close(). */
  dispatcher?: Dispatcher
}

/**
 * Creates the one API client of a site; build and preview both use it. No retry: a failed request fails the page,
 * as the site's specification requires.
 */
export function createApiClient(site: ResolvedSite, options: ApiClientOptions = {}): ApiClient {
  const { baseUrl, timeoutMs, maxResponseBytes } = site.api
  // header names in one case, so that one of the config (`Accept`) replaces the client's own, not joins it
  const defaultHeaders = lowerCaseNames(site.api.headers)
  // Its own pool, never undici's global dispatcher: Node's built-in fetch installs its own (bundled) undici there.
  const ownAgent = options.dispatcher ? undefined : new Agent()
  const dispatcher = options.dispatcher ?? ownAgent!

  /**
   * One GET; network failures, the deadline (`api.timeoutMs`, headers and body together)
   * and answers over `api.maxResponseBytes` throw FetchError, any HTTP answer is returned as it is.
   */
  async function fetchAnswer(path: string, call: CallOptions = {}): Promise<RawAnswer> {
    const url = requestUrl(baseUrl, path.replace(/^\/{2,}/, '/'))
    try {
      const { status, headers, body } = await getBytes(url, {
        // an answer is read as sent, never decoded: no header may ask for a compressed one
        headers: { accept: 'application/json', ...defaultHeaders, ...call.headers, 'accept-encoding': 'identity' },
        timeoutMs,
        maxBytes: maxResponseBytes,
        signal: call.signal,
        dispatcher,
      })
      return { url, status, body, headers }
    } catch (cause) {
      throw toFetchError(
        cause,
        url,
        isExpired(cause) ? 'expired' : cause instanceof RequestEnded ? 'aborted' : undefined,
      )
    }
  }

  function toFetchError(cause: unknown, url: string, ended?: 'expired' | 'aborted'): FetchError {
    if (cause instanceof BodyTooLarge)
      return new FetchError(
        'API_TOO_LARGE',
        `answer larger than ${cause.limitBytes} bytes (api.maxResponseBytes), not read further (GET ${url})`,
        { url, status: 502, cause },
      )
    if (ended === 'expired')
      return new FetchError('API_TIMEOUT', `no complete answer within ${timeoutMs} ms (GET ${url})`, {
        url,
        status: 504,
        cause,
      })
    const what = ended === 'aborted' ? 'request aborted by the caller' : networkFailure(cause)
    return new FetchError('API_NETWORK', `${what} (GET ${url})`, { url, status: 502, cause })
  }

  async function getJson(
    path: string,
    call?: CallOptions,
  ): Promise<{ body: Record<string, unknown>; headers: Record<string, string> }> {
    const answer = await fetchAnswer(path, call)
    return { body: readJsonObject(answer), headers: answer.headers }
  }

  /** A page request's answer: 2xx as it came, anything else thrown (with its parsed body as data). */
  async function getPageAnswer(pathWithQuery: string, call?: CallOptions): Promise<RawAnswer> {
    const answer = await fetchAnswer(filterQuery(pathWithQuery, site.api.allowQuery), call)
    if (answer.status < 200 || answer.status >= 300) readJsonObject(answer) // throws API_HTTP
    return answer
  }

  return {
    baseUrl,
    dispatcher,
    close: async () => ownAgent?.close(),
    getPageAnswer,
    async getPage(pathWithQuery, call) {
      return readPageAnswer(await getPageAnswer(pathWithQuery, call))
    },
    async getInitialData(locale, route = {}, call) {
      if (!site.features.initInitialData) return { data: { navigation: [], i18n: [] }, headers: {} }
      const pathFor = (endpoint: string) =>
        toInitialDataPath({ endpoint, locale, i18n: site.i18n, routePath: route.path, routeQuery: route.query })
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
