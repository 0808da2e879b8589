/**
 * One page request, its answer sorted into what the build does with it.
 * Never throws: API errors become `error` answers, collected by the build.
 * A 2xx answer stays text here: the render job reads it (page or redirect
 * record, src/api/answer.ts), so the build's thread never parses page JSON.
 */
import type { ApiClient, RawAnswer } from '../../api/client.js'
import { buildIssues, FetchError } from '../../errors.js'
import type { BuildFailure } from '../types.js'

/** An API error as the build lists it. */
export type ApiFailure = Pick<BuildFailure, 'kind' | 'status' | 'reason'>

export type ApiAnswer =
  /** `receivedAt`: when it came (ms since the epoch); its max-age counts from then, however much later it is built. */
  | { type: 'answer'; answer: RawAnswer; receivedAt: number }
  /** HTTP 404 (with or without an error-handler page body). */
  | { type: 'not-found'; status: number; data: unknown }
  | ({ type: 'error' } & ApiFailure)

export async function fetchPage(api: ApiClient, path: string, signal?: AbortSignal): Promise<ApiAnswer> {
  try {
    return { type: 'answer', answer: await api.getPageAnswer(path, { signal }), receivedAt: Date.now() }
  } catch (error) {
    if (error instanceof FetchError && error.code === 'API_HTTP' && error.status === 404)
      return { type: 'not-found', status: 404, data: error.data }
    return { type: 'error', ...buildIssues.api(error) }
  }
}
