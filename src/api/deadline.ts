/**
 * A deadline for one API request, headers and body together (issue 13): undici's
 * `headersTimeout`/`bodyTimeout` only bound the gap between two chunks, so an API
 * trickling one byte a second never timed out.
 */
export interface Deadline {
  /** Aborts when the time is up or when the caller's signal aborts, whichever comes first. */
  readonly signal: AbortSignal
  /** True once the time is up (and not because the caller aborted first). */
  expired(): boolean
  /** Stops the timer and lets go of the caller's signal; call it when the request is done. */
  clear(): void
}

/** Starts a deadline of `ms` milliseconds, tied to the caller's `signal` (a preview request's) when there is one. */
export function startDeadline(ms: number, signal?: AbortSignal): Deadline {
  const controller = new AbortController()
  let expired = false
  const onAbort = () => controller.abort(signal?.reason)
  const timer = setTimeout(() => {
    expired = true
    controller.abort(new DOMException(`no complete answer within ${ms} ms`, 'TimeoutError'))
  }, ms)
  if (signal?.aborted) onAbort()
  else signal?.addEventListener('abort', onAbort, { once: true })
  return {
    signal: controller.signal,
    expired: () => expired,
    clear() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
    },
  }
}
