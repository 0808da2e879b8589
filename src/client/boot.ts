/** Reading the boot JSON a page embeds, and loading initial data files once per URL. */

import { CLIENT_REQUEST_TIMEOUT_MS } from '../shared/client-constants.js'
import type { BootState } from '../shared/contract.js'
import { BOOT_ELEMENT_ID } from '../shared/layout.js'
import type { InitialData } from '../shared/types.js'

export function readBoot(doc: Document): BootState {
  const text = doc.getElementById(BOOT_ELEMENT_ID)?.textContent
  if (!text) throw new Error(`site: #${BOOT_ELEMENT_ID} is missing; the page cannot hydrate`)
  const boot = JSON.parse(text) as BootState
  if (!boot || typeof boot.clientVersion !== 'string' || typeof boot.state !== 'object')
    throw new Error(`site: #${BOOT_ELEMENT_ID} is not a boot state`)
  // The server always decides how the main hydrates; a boot without it is not one it wrote: hydrate in full.
  const kind = (boot.hydration as { kind?: unknown } | undefined)?.kind
  if (kind !== 'kept' && kind !== 'full' && kind !== 'islands') return { ...boot, hydration: { kind: 'full' } }
  return boot
}

export type InitialDataLoader = (url: string) => Promise<InitialData>

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>

/**
 * The window's `fetch`, whose requests fail (`TimeoutError`) when not answered in full within `timeoutMs`: the
 * browser waits for a stalled connection for minutes, a navigation waiting on it does nothing meanwhile.
 */
export function createTimedFetch(win: Window, timeoutMs = CLIENT_REQUEST_TIMEOUT_MS): FetchLike {
  return (url, init) => win.fetch(url, { ...init, signal: init.signal ?? AbortSignal.timeout(timeoutMs) })
}

/**
 * `promise`, rejected once `timeoutMs` passed: a chunk import has no timeout of its own, and one whose connection
 * stalls waits for minutes, the link that needs it dead meanwhile. Given up as late as the client's requests.
 */
export function within<T>(win: Window, promise: Promise<T>, timeoutMs = CLIENT_REQUEST_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = win.setTimeout(() => reject(new Error(`site: not loaded within ${timeoutMs} ms`)), timeoutMs)
    promise.then(resolve, reject).finally(() => win.clearTimeout(timer))
  })
}

/**
 * Loads initial data files (`/_site/data/initial-<locale>-<hash>.json`), each URL once.
 * The names are content-hashed, so the browser's HTTP cache may answer them.
 */
export function createInitialDataLoader(fetchFn: FetchLike): InitialDataLoader {
  const cache = new Map<string, Promise<InitialData>>()
  return (url) => {
    let pending = cache.get(url)
    if (!pending) {
      // Credentials as fetch sends them by default: same origin only.
      pending = fetchFn(url, { headers: { accept: 'application/json' } }).then(async (response) => {
        if (!response.ok) throw new Error(`site: initial data ${url} answered ${response.status}`)
        const data = (await response.json()) as InitialData
        if (!data || typeof data !== 'object' || Array.isArray(data))
          throw new Error(`site: initial data ${url} is not initial data`)
        return data
      })
      pending.catch(() => cache.delete(url))
      cache.set(url, pending)
    }
    return pending
  }
}
