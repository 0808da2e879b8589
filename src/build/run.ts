/**
 * The context of one build run: everything the stages share, created once by
 * `build()` from its options (clock, API client, limits, collectors). Nothing
 * here outlives the run.
 */
import { availableParallelism } from 'node:os'
import pLimit, { type LimitFunction } from 'p-limit'
import { type ApiClient, createApiClient } from '../api/client.js'
import { outDirOf } from '../config/resolve.js'
import type { ResolvedConfig, ResolvedSite } from '../config/types.js'
import { errors } from '../errors.js'
import type { ApiAnswer } from './crawl/fetch-page.js'
import type { OutputMemory } from './incremental/previous.js'
import { StringPool } from './page-table.js'
import type { RenderService } from './render-threads/render-pool.js'
import { defaultRenderThreads } from './render-threads/threads.js'
import { type BuildState, createBuildState } from './state.js'
import type { BuildLogger, BuildOptions, BuildProgress } from './types.js'

/** What a builder that lives (builder.ts) hands each of its builds, besides the build's options. */
export interface BuildWiring {
  /** The API's share of the concurrency, when it outlives the build (a Builder's, shared with its prefetch). */
  apiSlot?: LimitFunction
  /** Page answers asked ahead of this build, by path (prefetch.ts): taken instead of asking again. */
  prefetched?: Map<string, Promise<ApiAnswer>>
  /** The ask each of them was asked in (prefetch.ts: one a CMS event). */
  prefetchedAsk?: ReadonlyMap<string, number>
  /** Render workers that outlive this build (a Builder's, builder.ts): used, never closed, by it. */
  render?: RenderService
  /** What earlier builds of a long-lived builder know of the output folder (see OutputMemory); updated by this build. */
  memory?: OutputMemory
}

/**
 * Pages in flight per API slot: fetched pages wait for render and write while
 * the slot serves the next request. Bounds memory to concurrency x this many pages.
 */
const PAGES_IN_FLIGHT_PER_API_SLOT = 4

export interface BuildRun {
  readonly startedAt: number
  readonly config: ResolvedConfig
  readonly site: ResolvedSite
  /** Absolute output folder. */
  readonly outDir: string
  readonly api: ApiClient
  /** The API's share of the concurrency (p-limit); render and write never hold it. */
  readonly apiSlot: LimitFunction
  /** Page answers asked ahead of this build (prefetch.ts), each taken once. */
  readonly prefetched: Map<string, Promise<ApiAnswer>> | undefined
  /** The ask each of them was asked in (prefetch.ts: one a CMS event): see only.ts. */
  readonly prefetchedAsk: ReadonlyMap<string, number> | undefined
  /** How many paths may be between "fetch started" and "written" at once. */
  readonly maxPagesInFlight: number
  /** Render worker threads (0: render in the build's thread). */
  readonly renderThreads: number
  readonly state: BuildState
  /**
   * One string per path for the whole build: this build's pages, the previous output's and every link
   * name a path by the same string (a page's answer arrives from its render worker with its own copies).
   */
  readonly pool: StringPool
  readonly logger: BuildLogger
  readonly now: () => number
  /** Aborted when the build is to stop (SIGINT, SIGTERM): see BuildOptions.signal. */
  readonly signal: AbortSignal | undefined
  progress(event: BuildProgress): void
  /** Throws BUILD_INTERRUPTED once the signal was aborted; stages call it between steps. */
  checkInterrupted(): void
}

const SILENT: BuildLogger = { info: () => {}, warn: () => {} }

export function createBuildRun(options: BuildOptions & BuildWiring): BuildRun {
  const { config, site } = options
  const now = options.now ?? Date.now
  const { concurrency } = site.build
  const configured = site.build.renderThreads
  const renderThreads =
    options.renderThreads ?? (configured === 'auto' ? defaultRenderThreads(availableParallelism()) : configured)
  if (!Number.isInteger(renderThreads) || renderThreads < 0)
    throw errors.usage(`Render threads must be a whole number of at least 0, got ${renderThreads}`)
  // An `--only` build of a long-lived builder may take its last output as it is (OutputMemory): over its pool.
  const pool = (options.only && options.memory?.last?.store.pages.pool) || new StringPool()
  return {
    startedAt: now(),
    config,
    site,
    outDir: outDirOf(config.root, site),
    api: createApiClient(site, { dispatcher: options.dispatcher }),
    apiSlot: options.apiSlot ?? pLimit(concurrency),
    prefetched: options.prefetched,
    prefetchedAsk: options.prefetchedAsk,
    maxPagesInFlight: concurrency * PAGES_IN_FLIGHT_PER_API_SLOT,
    renderThreads,
    state: createBuildState(site.i18n.locales, pool),
    pool,
    logger: options.logger ?? SILENT,
    now,
    signal: options.signal,
    // once stopped, the pages its abort cuts short would count as failures of the site's
    progress: (event) => {
      if (!options.signal?.aborted) options.onProgress?.(event)
    },
    checkInterrupted() {
      if (!options.signal?.aborted) return
      // the CLI aborts with the signal's name; a caller's plain abort() with a DOMException, named for what it is
      const { reason } = options.signal
      throw errors.buildInterrupted(typeof reason === 'string' ? reason : 'an abort signal')
    },
  }
}
