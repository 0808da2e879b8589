/**
 * API failures as preview shows them. A page or JSON answer never names the API's address (the
 * API may be internal, its URL a secret of the network); the terminal does, with the config
 * key to check, when the API stops answering and when it answers again.
 */
import { RequestEnded } from '../api/get-bytes.js'
import { FetchError } from '../errors.js'

/** What an editor reads on the error page when the API does not answer. */
export function apiUnreachableHint(reason: string): string {
  return `The content API did not answer (${reason}). Check api.baseUrl in the site configuration (or --api) and that the API is running (for the demo: npx site demo-api); the terminal running site preview names the address it tried.`
}

/** An error's message without the API addresses the API client puts in it (` (GET http://api.internal/x)`). */
export function publicMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error)
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    // Removed by the exact text, whatever the URL holds (a `)` in a query, say).
    if (e instanceof FetchError) message = message.split(` (${e.method} ${e.url})`).join('').split(e.url).join('…')
  }
  return message
}

/** The API failure in an error's causes that means the API did not answer at all (network error, deadline). */
export function unansweredCall(error: unknown): FetchError | undefined {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof FetchError && (e.code === 'API_NETWORK' || e.code === 'API_TIMEOUT')) return e
  }
  return undefined
}

/** True for a call preview itself gave up because its request went away (a tab closed mid-load): no news about the API. */
function abortedByCaller(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause)
    if (e instanceof RequestEnded) return e.why === 'aborted'
  return false
}

export interface ApiWatch {
  /** After a call to the API at `baseUrl`: `error` when it failed. Logs the first unanswered call and the first answer after it. */
  saw(baseUrl: string, error?: unknown): void
}

/** One per preview context; `configFile` is named in the terminal line. */
export function createApiWatch(input: { log: (line: string) => void; configFile: string }): ApiWatch {
  const down = new Set<string>()
  return {
    saw(baseUrl, error) {
      // the editor left before the API answered: neither a failure nor an answer of the API
      if (abortedByCaller(error)) return
      const unanswered = error === undefined ? undefined : unansweredCall(error)
      if (!unanswered) {
        // An HTTP answer, even an error status, is an answer.
        if (down.delete(baseUrl)) input.log(`preview: the content API at ${baseUrl} answers again`)
        return
      }
      if (down.has(baseUrl)) return
      down.add(baseUrl)
      input.log(
        `preview: the content API at ${baseUrl} did not answer (${publicMessage(unanswered)}, ${unanswered.method} ${unanswered.url}): check api.baseUrl in ${input.configFile} (or --api URL) and that the API is running (for the demo: npx site demo-api)`,
      )
    },
  }
}
