/**
 * Detects that a newer build was published while this tab is open, by polling
 * `/_site/builds/latest.json`: first after `MANIFEST_CHECK_DELAY_MS` (off the
 * critical path), then every `MANIFEST_CHECK_INTERVAL_MS` and whenever the tab
 * becomes visible again. The router then turns the next navigation into a full load.
 */
import { MANIFEST_CHECK_DELAY_MS, MANIFEST_CHECK_INTERVAL_MS } from '../shared/constants.js'
import { LATEST_MANIFEST_URL } from '../shared/layout.js'
import type { Timers } from './timers.js'

export interface VisibilitySource {
  readonly visibilityState: string
  addEventListener(type: 'visibilitychange', listener: () => void): void
  removeEventListener(type: 'visibilitychange', listener: () => void): void
}

export interface ManifestCheck {
  start(): void
  stop(): void
  /** Reads latest.json now; resolves to its build id, or undefined when it could not be read. */
  check(): Promise<string | undefined>
  /** True once a build id other than the page's was seen. */
  isStale(): boolean
}

export interface ManifestCheckOptions {
  buildId: string
  fetch: (url: string, init: RequestInit) => Promise<Response>
  timers: Pick<Timers, 'setTimeout' | 'clearTimeout' | 'setInterval' | 'clearInterval'>
  visibility?: VisibilitySource
  url?: string
  delayMs?: number
  intervalMs?: number
  onNewBuild?: (id: string) => void
}

/** The id in a latest.json body (`{ id }`; `{ buildId }` accepted too). */
export function readManifestId(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined
  const { id, buildId } = body as { id?: unknown; buildId?: unknown }
  const value = id ?? buildId
  return typeof value === 'string' && value !== '' ? value : undefined
}

export function createManifestCheck(options: ManifestCheckOptions): ManifestCheck {
  const { buildId, timers, visibility } = options
  const url = options.url ?? LATEST_MANIFEST_URL
  let stale = false
  let inFlight: Promise<string | undefined> | undefined
  let first: unknown
  let interval: unknown

  const onVisible = () => {
    if (visibility?.visibilityState === 'visible') void check()
  }

  async function read(): Promise<string | undefined> {
    try {
      const response = await options.fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } })
      if (!response.ok) return undefined
      return readManifestId(await response.json())
    } catch {
      return undefined
    }
  }

  function check(): Promise<string | undefined> {
    inFlight ??= read().then((id) => {
      inFlight = undefined
      if (id !== undefined && id !== buildId && !stale) {
        stale = true
        stop()
        options.onNewBuild?.(id)
      }
      return id
    })
    return inFlight
  }

  function stop() {
    timers.clearTimeout(first)
    timers.clearInterval(interval)
    first = interval = undefined
    visibility?.removeEventListener('visibilitychange', onVisible)
  }

  return {
    start() {
      if (stale || first !== undefined || interval !== undefined) return
      first = timers.setTimeout(() => {
        first = undefined
        void check()
        if (!stale) interval = timers.setInterval(() => void check(), options.intervalMs ?? MANIFEST_CHECK_INTERVAL_MS)
      }, options.delayMs ?? MANIFEST_CHECK_DELAY_MS)
      visibility?.addEventListener('visibilitychange', onVisible)
    },
    stop,
    check,
    isStale: () => stale,
  }
}
