/**
 * A small cache of payload answers by path, shared by prefetch, navigation and
 * back/forward. Keeps the last `limit` answers; failures are dropped once settled
 * so that the next attempt asks the network again.
 */
import type { PayloadResult } from './payloads.js'

/** Payloads kept in memory: enough for back/forward over a typical visit. */
const PAYLOAD_CACHE_SIZE = 30

export interface PayloadCache {
  get(path: string): Promise<PayloadResult>
  /** Forgets a path (before a retry). */
  delete(path: string): void
  /** Forgets every answer (a newer build was published: they are of the older one). */
  clear(): void
}

export function createPayloadCache(input: {
  load: (path: string) => Promise<PayloadResult>
  limit?: number
}): PayloadCache {
  const limit = input.limit ?? PAYLOAD_CACHE_SIZE
  const entries = new Map<string, Promise<PayloadResult>>()
  return {
    get(path) {
      const hit = entries.get(path)
      if (hit) {
        // Re-insert: Map order is the eviction order.
        entries.delete(path)
        entries.set(path, hit)
        return hit
      }
      const pending = input.load(path).then((result) => {
        if (result.type === 'error' && entries.get(path) === pending) entries.delete(path)
        return result
      })
      entries.set(path, pending)
      while (entries.size > limit) entries.delete(entries.keys().next().value as string)
      return pending
    },
    delete(path) {
      entries.delete(path)
    },
    clear() {
      entries.clear()
    },
  }
}
