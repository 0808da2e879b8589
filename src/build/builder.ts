/**
 * A builder that lives: its render workers load the templates once, the browser client is bundled
 * once, the API's connections stay open, and `build()` runs as often as asked (a full build or an
 * `--only` one), one at a time, each a run of its own (build.ts). `close()` releases all of it.
 * `site build` is a one-shot use of it; `site publish` keeps one warm between CMS events.
 */
import { availableParallelism } from 'node:os'
import pLimit from 'p-limit'
import { Agent } from 'undici'
import { createApiClient } from '../api/client.js'
import { errors } from '../errors.js'
import { bundleClient, type ClientBundle } from '../hydration/bundle.js'
import { loadRenderer, type RenderWatch } from '../render/renderer.js'
import { INLINE_RENDER_PAGES, ONLY_PREFETCH_MAX_PAGES } from '../shared/constants.js'
import { build } from './build.js'
import { createPrefetch } from './crawl/prefetch.js'
import type { OutputMemory } from './incremental/previous.js'
import {
  createGrowingRenderService,
  createInlineRenderService,
  createRenderPool,
  type RenderService,
} from './render-threads/render-pool.js'
import { defaultRenderThreads } from './render-threads/threads.js'
import type { BuildOptions, BuildResult } from './types.js'

/** What may differ from one build of a builder to the next. */
export type BuilderRunOptions = Pick<BuildOptions, 'only' | 'force' | 'signal' | 'onProgress' | 'logger'>

/** What a builder is made of; the same for all its builds. */
export type BuilderOptions = Omit<BuildOptions, keyof BuilderRunOptions> & {
  /**
   * Keep the render workers between builds. A one-shot builder (`site build`) ends them as soon as its
   * build has rendered its last page, so their heaps are not held through the end phase (peak RSS).
   * @default true
   */
  warm?: boolean
  /** Runs each render of the build's own thread (`site build`'s main thread ends one that runs too long). */
  inlineRenderWatch?: RenderWatch
}

export interface Builder {
  /** Builds over the output folder; builds asked for while one runs wait for it. */
  build(options?: BuilderRunOptions): Promise<BuildResult>
  /**
   * What its builds know of the output folder (the output as the last one committed it), so that the next
   * `--only` build (and a deploy of it) does not read it again; undefined for a one-shot builder.
   */
  readonly memory: OutputMemory | undefined
  /**
   * Asks the API now for the pages `items` (`--only` items) name, as the last build knows them, for the next
   * build to take (prefetch.ts): a publisher calls it for each CMS event it records. Nothing for a one-shot
   * builder, or before a first build.
   */
  prefetch(items: readonly string[]): void
  /** Waits for the build that runs, then ends the render workers and closes the API's connections. */
  close(): Promise<void>
}

function createRenderService(options: BuilderOptions): RenderService {
  const { config } = options
  if (options.renderer) return createInlineRenderService(options.renderer)
  const configured = options.site.build.renderThreads
  const threads =
    options.renderThreads ?? (configured === 'auto' ? defaultRenderThreads(availableParallelism()) : configured)
  if (!Number.isInteger(threads) || threads < 0)
    throw errors.usage(`Render threads must be a whole number of at least 0, got ${threads}`)
  const { inlineRenderWatch: watch } = options
  const { renderTimeoutMs: timeoutMs } = options.site.build
  const inline = () =>
    createInlineRenderService(loadRenderer(config.root), watch && ((what, run) => watch({ what, timeoutMs }, run)))
  if (threads === 0) return inline()
  const pool = () => createRenderPool({ root: config.root, threads, timeoutMs })
  // one-shot and left to choose: workers only once the build proves large enough to pay for their start
  if (options.warm === false && options.renderThreads === undefined && configured === 'auto')
    return createGrowingRenderService({
      inline: inline(),
      inlinePages: INLINE_RENDER_PAGES,
      pool,
    })
  return pool()
}

export function createBuilder(options: BuilderOptions): Builder {
  const startRender = () => {
    const service = createRenderService(options)
    service.ready.catch(() => {}) // a template error is each build's to report
    return service
  }
  let render = startRender()
  // A warm builder's builds share the workers: none of them ends them.
  const lease: RenderService = {
    get ready() {
      return render.ready
    },
    start: (context) => render.start(context),
    page: (job, use) => render.page(job, use),
    notFound: (job) => render.notFound(job),
    expect: (pages) => render.expect?.(pages),
    close: options.warm === false ? () => render.close() : async () => {},
  }
  let client: Promise<ClientBundle> | undefined
  const bundle = (): Promise<ClientBundle> => {
    client ??= (options.bundleClient?.() ?? bundleClient({ root: options.config.root, minify: true })).catch(
      (error: unknown) => {
        client = undefined // a template fixed on disk is taken by the next build
        throw error
      },
    )
    return client
  }
  const ownAgent = options.dispatcher ? undefined : new Agent()
  const dispatcher = options.dispatcher ?? ownAgent
  let queue: Promise<unknown> = Promise.resolve()
  let closed = false
  let closing: Promise<void> | undefined
  const memory: OutputMemory | undefined = options.warm === false ? undefined : { last: undefined }
  // A warm builder's builds and its prefetch share one API budget (the CMS sees `build.concurrency` requests at most).
  const apiSlot = memory ? pLimit(options.site.build.concurrency) : undefined
  const prefetch =
    memory && apiSlot
      ? createPrefetch({
          memory,
          api: createApiClient(options.site, { dispatcher }),
          slot: apiSlot,
          maxPages: ONLY_PREFETCH_MAX_PAGES,
        })
      : undefined
  return {
    memory,
    prefetch(items) {
      if (!closed) prefetch?.ask(items)
    },
    build(run = {}) {
      if (closed) return Promise.reject(errors.usage('This builder was closed'))
      const { warm: _warm, ...shared } = options
      const next = queue.then(async () => {
        // a worker that died (or templates that failed to load, fixed since) fails every build: start anew
        if (render.broken) {
          await render.close()
          render = startRender()
        }
        // the pages it names are asked first: their answers come in with the initial data, not after it
        if (run.only) prefetch?.askMissing(run.only)
        // what was asked ahead until this build starts (later asks wait for the next)
        const ahead = prefetch?.take()
        return build({
          ...shared,
          ...run,
          render: lease,
          bundleClient: bundle,
          dispatcher,
          memory,
          apiSlot,
          prefetched: ahead?.answers,
          prefetchedAsk: ahead?.ask,
        })
      })
      queue = next.catch(() => {})
      return next
    },
    close() {
      closed = true
      // a second close() waits for the first: the API's connections are closed once
      closing ??= queue.then(async () => {
        await render.close()
        await ownAgent?.close()
      })
      return closing
    },
  }
}
