/**
 * One page request, its answer sorted into what the build does with it.
 * Never throws: API errors become `error` answers, collected by the build.
 */
import type { ApiClient } from '../api/client.js'
import { FetchError } from '../errors.js'

export type ApiAnswer =
  | { type: 'page'; raw: unknown }
  | { type: 'redirect'; redirectUrl: string; statusCode: number }
  /** HTTP 404 (with or without an error-handler page body). */
  | { type: 'not-found'; status: number; data: unknown }
  | { type: 'error'; status: number; reason: string }

export async function fetchPage(api: ApiClient, path: string): Promise<ApiAnswer> {
  try {
    const result = await api.getPage(path)
    if (result.type === 'redirect') return { type: 'redirect', redirectUrl: result.redirectUrl, statusCode: result.statusCode }
    return { type: 'page', raw: result.data }
  } catch (error) {
    if (error instanceof FetchError) {
      if (error.code === 'API_HTTP' && error.status === 404) return { type: 'not-found', status: 404, data: error.data }
      return { type: 'error', status: error.status, reason: `API error: ${error.message}` }
    }
    return { type: 'error', status: 500, reason: `API error: ${error instanceof Error ? error.message : String(error)}` }
  }
}
