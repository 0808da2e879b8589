/**
 * `site build` runs the build in a worker thread of its own (build-worker.ts), so that the build's
 * isolate gets a young generation cap, which node only takes on its command line for the main one.
 * V8 lets the main isolate's young generation grow to 32 MB on its own; for a build, whose
 * objects mostly die young or live all along, that is RSS for no speed: capped, a navigation
 * change of a 30,000-page site peaks 20 MB lower at the same time (bench/incremental.mjs).
 * The main thread draws progress, forwards a stop signal, prints the result, and ends the worker when a
 * render in its own thread runs too long (render-watch.ts).
 */
import { Worker } from 'node:worker_threads'
import type { InlineConfig } from '../config/types.js'
import { type ErrorCode, errors, SiteError } from '../errors.js'
import type { BuildLogger, BuildProgress, BuildResult } from '../index.js'
import { compiledModuleUrl } from '../shared/compiled-module.js'
import { createRenderCell, endWorkerMidRender, type RenderStarted, watchWorkerRenders } from './render-watch.js'

/** Young-generation cap of the build's isolate (see above; render workers have their own, render-pool.ts). */
export const BUILD_WORKER_YOUNG_GENERATION_MB = 8

/** What the build worker is asked to do: resolve this config, pick this site, build. */
export interface BuildRequest {
  config: InlineConfig
  /** `--site`: the host of the site to build. */
  site?: string
  force?: boolean
  only?: string[]
}

/** An error as it crosses the thread boundary: what the CLI prints of it (see exit.ts). */
export interface SentError {
  message: string
  stack?: string
  code?: ErrorCode
  hint?: string
  status?: number
  cause?: { message: string; stack?: string }
}

export type FromBuildWorker =
  | { type: 'progress'; event: BuildProgress }
  | { type: 'log'; level: keyof BuildLogger; line: string }
  | { type: 'site'; site: BuildSiteInfo }
  /** A render in the worker's own thread starts (render-watch.ts). */
  | RenderStarted
  | { type: 'done'; result: BuildResult }
  | { type: 'failed'; error: SentError }

/** What the CLI may say of the site being built once its config is resolved: the API by its origin, never its credentials. */
export interface BuildSiteInfo {
  apiOrigin: string
  /** The output folder (absolute). */
  outDir: string
}

export type ToBuildWorker = { type: 'abort'; reason: unknown }

export interface BuildWorkerData {
  request: BuildRequest
  /** Whether page events are wanted (a progress bar is drawn); locale events always are. */
  pageProgress: boolean
  /** The cell of render-watch.ts. */
  renderCell: SharedArrayBuffer
}

/** The error as plain data; `redact` hides the site's credentials in its texts (see config/secrets.ts). */
export function toSentError(error: unknown, redact: (text: string) => string = (text) => text): SentError {
  if (!(error instanceof Error)) return { message: redact(String(error)) }
  const sent: SentError = { message: redact(error.message), stack: error.stack && redact(error.stack) }
  if (error instanceof SiteError)
    Object.assign(sent, { code: error.code, hint: error.hint && redact(error.hint), status: error.status })
  if (error.cause instanceof Error)
    sent.cause = { message: redact(error.cause.message), stack: error.cause.stack && redact(error.cause.stack) }
  return sent
}

export function fromSentError(sent: SentError): Error {
  const cause = sent.cause && Object.assign(new Error(sent.cause.message), { stack: sent.cause.stack })
  const error = sent.code
    ? new SiteError(sent.code, sent.message, { hint: sent.hint, status: sent.status, cause })
    : new Error(sent.message, cause ? { cause } : undefined)
  if (sent.stack) error.stack = sent.stack
  return error
}

const WORKER_URL = compiledModuleUrl(import.meta.url, 'build-worker.js')

/** Builds in the build worker; resolves to its result, rejects with its error (as build() would). */
export function runBuildInWorker(
  request: BuildRequest,
  io: {
    onProgress: (event: BuildProgress) => void
    logger: BuildLogger
    signal: AbortSignal
    pageProgress: boolean
    /** Once the config is resolved: what a failure report may name (the API's origin). */
    onSite?: (site: BuildSiteInfo) => void
  },
): Promise<BuildResult> {
  return new Promise((resolve, reject) => {
    const cell = createRenderCell()
    const worker = new Worker(WORKER_URL, {
      workerData: {
        request,
        pageProgress: io.pageProgress,
        renderCell: cell.buffer as SharedArrayBuffer,
      } satisfies BuildWorkerData,
      resourceLimits: { maxYoungGenerationSizeMb: BUILD_WORKER_YOUNG_GENERATION_MB },
    })
    let settled = false
    // The worker is ended once it has answered (an API client's idle sockets must not keep it alive), by `end`.
    const settle = (
      done: (ended: Promise<unknown>) => void,
      end: () => Promise<unknown> = () => worker.terminate(),
    ) => {
      if (settled) return
      settled = true
      io.signal.removeEventListener('abort', abort)
      renders.clear()
      done(end())
    }
    let outDir: string | undefined
    // A worker ended in a render leaves what a stopped build removes (its temporary folder, its lock): removed here.
    const endMidRender = (error: SiteError) =>
      settle(
        (ended) => {
          const out = outDir
          ended
            .then(async () => {
              if (out) await (await import('../build-api.js')).removeOwnBuildLeftovers(out)
            })
            .catch(() => {})
            .finally(() => reject(error))
        },
        () => endWorkerMidRender(worker),
      )
    const renders = watchWorkerRenders(cell, ({ what, timeoutMs }) =>
      endMidRender(errors.renderTimeout(what, timeoutMs)),
    )
    const abort = () => {
      worker.postMessage({ type: 'abort', reason: io.signal.reason } satisfies ToBuildWorker)
      const signal = io.signal.reason
      renders.stopping(() =>
        endMidRender(errors.buildInterrupted(typeof signal === 'string' ? signal : 'an abort signal')),
      )
    }
    if (io.signal.aborted) abort()
    else io.signal.addEventListener('abort', abort)
    worker.on('message', (message: FromBuildWorker) => {
      if (message.type === 'progress') io.onProgress(message.event)
      else if (message.type === 'log') io.logger[message.level](message.line)
      else if (message.type === 'site') {
        outDir = message.site.outDir
        io.onSite?.(message.site)
      } else if (message.type === 'rendering') renders.started(message)
      else if (message.type === 'done') settle(() => resolve(message.result))
      else settle(() => reject(fromSentError(message.error)))
    })
    worker.on('error', (error) => settle(() => reject(error)))
    worker.on('exit', (code) =>
      settle(() => reject(new SiteError('BUILD_FAILED', `The build worker stopped (exit code ${code})`))),
    )
  })
}
