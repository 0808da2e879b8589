import { filterQuery } from '../api/query.js'
import { FetchError, isSiteError, SiteError } from '../errors.js'
import { prepareInitialData, preparePage } from '../render/prepare.js'
import type { PageError } from '../shared/contract.js'
import type { InitialData, PageData } from '../shared/types.js'
import { apiUnreachableHint, publicMessage, unansweredCall } from './api-errors.js'
import type { PreviewContext, PreviewSite } from './context.js'

/**
 * Fetches what one preview answer shows, live: the page (query filtered by
 * the API client) and, for HTML, the locale's initial data, in parallel.
 * Returns a discriminated union; API failures become error states, never throws
 * for them.
 */
export interface PageQuery {
  target: PreviewSite
  /** Normalised page path with locale prefix: `/pl/o-nas`. */
  path: string
  /** The request's query string (`?a=1`, or ''). */
  search: string
  locale: string
  /** Request headers forwarded to the API (`api.proxyReqHeaders`). */
  headers: Record<string, string>
  /** Payload requests render no header and footer, so they skip initial data. */
  withInitialData: boolean
  debug: boolean
  signal?: AbortSignal
}

export type LoadedPage =
  | {
      type: 'redirect'
      to: string
      statusCode: number
      /** For the error page of a refused target: it keeps the locale's header and footer. */
      initialData: InitialData
      apiHeaders: Array<Record<string, string> | undefined>
    }
  | {
      type: 'page'
      status: number
      page: PageData | null
      initialData: InitialData
      error?: PageError
      /** The API call that failed, as thrown (for the terminal: see ApiWatch). */
      failure?: unknown
      apiHeaders: Array<Record<string, string> | undefined>
    }

/** Initial data when none could be fetched: the header and footer render empty. */
export const EMPTY_INITIAL_DATA: InitialData = { navigation: [], i18n: [] }

const notAPage = (path: string): SiteError =>
  new SiteError('API_BAD_RESPONSE', `The API answer for ${path} is not a page (no numeric id)`, { status: 502 })

/**
 * The error shown by the error page; `raw` (the API's status, URL and body) only with `debug` (`?debug` and
 * `features.debug`), its URL and message through `redact` (the API's password and query token stay out).
 */
export function toPageError(
  error: unknown,
  path: string,
  debug: boolean,
  redact: (text: string) => string = (text) => text,
): PageError {
  const status = isSiteError(error) ? error.status : 500
  const notFound = error instanceof FetchError && error.code === 'API_HTTP' && status === 404
  // The API's address stays out of the page (and its boot JSON) unless debugging is on.
  const message = notFound ? `Page not found: ${path}` : publicMessage(error)
  const unanswered = unansweredCall(error)
  const shown: PageError = {
    status,
    message,
    ...(unanswered ? { hint: apiUnreachableHint(publicMessage(unanswered)) } : {}),
  }
  if (!debug) return shown
  const raw =
    error instanceof FetchError
      ? {
          code: error.code,
          status: error.status,
          method: error.method,
          url: redact(error.url),
          message: redact(error.message),
          data: error.data,
        }
      : isSiteError(error)
        ? { code: error.code, status: error.status, message: redact(error.message) }
        : { message }
  return { ...shown, raw }
}

/** The query initial data is asked with: the page's allowed parameters, never `type` (it would replace the endpoint's own). */
function initialDataQuery(search: string, allowQuery: PreviewSite['site']['api']['allowQuery']): URLSearchParams {
  const filtered = filterQuery(`/${search}`, allowQuery)
  const at = filtered.indexOf('?')
  const query = new URLSearchParams(at >= 0 ? filtered.slice(at + 1) : '')
  query.delete('type')
  return query
}

export async function loadPage(q: PageQuery): Promise<LoadedPage> {
  const { api, site } = q.target
  const call = { headers: q.headers, signal: q.signal }
  const [pageAnswer, initialAnswer] = await Promise.allSettled([
    api.getPage(`${q.path}${q.search}`, call),
    q.withInitialData
      ? api.getInitialData(q.locale, { path: q.path, query: initialDataQuery(q.search, site.api.allowQuery) }, call)
      : Promise.resolve(undefined),
  ])
  const initialHeaders = initialAnswer.status === 'fulfilled' ? initialAnswer.value?.headers : undefined

  const result = pageAnswer.status === 'fulfilled' ? pageAnswer.value : undefined
  if (result?.type === 'redirect')
    return {
      type: 'redirect',
      to: result.redirectUrl,
      statusCode: result.statusCode,
      initialData:
        initialAnswer.status === 'fulfilled' && initialAnswer.value
          ? prepareInitialData(initialAnswer.value.data).data
          : EMPTY_INITIAL_DATA,
      apiHeaders: [initialHeaders, result.headers],
    }
  const apiHeaders = [initialHeaders, result?.headers]

  let initialData = EMPTY_INITIAL_DATA
  if (initialAnswer.status === 'rejected') {
    // `Initial Data is unavailable: …` is fatal: shown instead of the page.
    const error = toPageError(initialAnswer.reason, q.path, q.debug, q.target.redact)
    return {
      type: 'page',
      status: error.status,
      page: null,
      initialData,
      error,
      failure: initialAnswer.reason,
      apiHeaders,
    }
  }
  if (initialAnswer.value) initialData = prepareInitialData(initialAnswer.value.data).data

  if (!result) {
    const reason: unknown = pageAnswer.status === 'rejected' ? pageAnswer.reason : undefined
    const error = toPageError(reason, q.path, q.debug, q.target.redact)
    const data = reason instanceof FetchError ? reason.data : undefined
    return {
      type: 'page',
      status: error.status,
      page: preparePage(data).page,
      initialData,
      error,
      failure: reason,
      apiHeaders,
    }
  }
  const page = preparePage(result.data).page
  if (page) return { type: 'page', status: 200, page, initialData, apiHeaders }
  const error = toPageError(notAPage(`${q.path}${q.search}`), q.path, q.debug)
  return { type: 'page', status: error.status, page: null, initialData, error, apiHeaders }
}

/**
 * A page the API answered with an error of its own, or with something that is no page (the TYPO3 frontend's HTML,
 * a 500), is named on the terminal too: the editor's error page says only its status, and the developer reading
 * the terminal would not know why. So is initial data the API refuses with any status (a 404 for a wrong
 * `api.endpoints.initialData`, a 401 or 403): fatal, every page is then an error page though the pages exist. An API
 * that did not answer at all is apiWatch's (once, not on each request).
 */
export function logServerError(
  ctx: Pick<PreviewContext, 'log'>,
  path: string,
  loaded: { status: number; error?: PageError; failure?: unknown },
) {
  const fatal = isSiteError(loaded.failure) && loaded.failure.code === 'INITIAL_DATA_UNAVAILABLE'
  if ((loaded.status < 500 && !fatal) || !loaded.error || unansweredCall(loaded.failure)) return
  const why = loaded.failure instanceof Error ? loaded.failure.message : loaded.error.message
  ctx.log(`preview: ${path}: ${loaded.status} ${why}`)
}
