/**
 * Detects that a build with other client code was published while this tab is open, by polling
 * `/_site/builds/latest.json`: first after `MANIFEST_CHECK_DELAY_MS` (off the
 * critical path), then every `MANIFEST_CHECK_INTERVAL_MS` and whenever the tab
 * becomes visible again. The router then turns the next navigation into a full load.
 * A build that changed only content (same `clientVersion`) is not stale: the tab keeps
 * navigating on payloads, each rendered with the initial data file it names.
 */
import { MANIFEST_CHECK_DELAY_MS, MANIFEST_CHECK_INTERVAL_MS } from '../shared/client-constants.js'
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
  /** Reads latest.json now; resolves to the newest build it names, or undefined when it could not be read. */
  check(): Promise<LatestBuild | undefined>
  /** True once a newest build with other client code than this tab's was seen. */
  isStale(): boolean
}

/** What latest.json says of the newest build. */
export interface LatestBuild {
  id: string
  /** The version of its client code; absent in a latest.json written before versions were recorded. */
  clientVersion?: string
}

export interface ManifestCheckOptions {
  /** The version of this tab's client code (BootState.clientVersion). */
  clientVersion: string
  fetch: (url: string, init: RequestInit) => Promise<Response>
  timers: Pick<Timers, 'setTimeout' | 'clearTimeout' | 'setInterval' | 'clearInterval'>
  visibility?: VisibilitySource
  url?: string
  delayMs?: number
  intervalMs?: number
  /** Called once, when the newest build has other client code than this tab. */
  onNewBuild?: (latest: LatestBuild) => void
  /**
   * Called when a read names another build than the read before, with the same client code: content
   * changed. The tab keeps navigating on payloads; payloads it fetched before are from the older build.
   */
  onNewContent?: (latest: LatestBuild) => void
}

/** The newest build in a latest.json body (`{ id, clientVersion }`; `{ buildId }` accepted for the id); undefined without an id. */
export function readLatestBuild(body: unknown): LatestBuild | undefined {
  if (!body || typeof body !== 'object') return undefined
  const { id, buildId, clientVersion } = body as { id?: unknown; buildId?: unknown; clientVersion?: unknown }
  const value = id ?? buildId
  if (typeof value !== 'string' || value === '') return undefined
  return typeof clientVersion === 'string' && clientVersion !== '' ? { id: value, clientVersion } : { id: value }
}

export function createManifestCheck(options: ManifestCheckOptions): ManifestCheck {
  const { clientVersion, timers, visibility } = options
  const url = options.url ?? LATEST_MANIFEST_URL
  let stale = false
  let lastId: string | undefined
  let inFlight: Promise<LatestBuild | undefined> | undefined
  let first: unknown
  let interval: unknown

  const onVisible = () => {
    if (visibility?.visibilityState === 'visible') void check()
  }

  async function read(): Promise<LatestBuild | undefined> {
    try {
      const response = await options.fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } })
      if (!response.ok) return undefined
      return readLatestBuild(await response.json())
    } catch {
      return undefined
    }
  }

  function check(): Promise<LatestBuild | undefined> {
    inFlight ??= read().then((latest) => {
      inFlight = undefined
      if (latest === undefined) return latest
      // A latest.json without a client version comes from an older engine: its code is not this tab's either.
      if (latest.clientVersion !== clientVersion && !stale) {
        stale = true
        stop()
        options.onNewBuild?.(latest)
      } else if (lastId !== undefined && latest.id !== lastId) options.onNewContent?.(latest)
      lastId = latest.id
      return latest
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
