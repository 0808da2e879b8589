/**
 * `site publish` runs its publisher, webhook server and warm builder included, in a worker thread of its own
 * (publish-worker.ts), for the reason `site build` builds in one (build-host.ts): the isolate that builds gets
 * a young-generation cap, which node takes on its command line only for the main isolate. The warm builder
 * builds again and again in that isolate; left to itself, V8 grows the main isolate's young generation to
 * 32 MB, RSS that buys a publish no speed. The main thread prints the log lines, waits for SIGINT or SIGTERM
 * and asks the worker to stop. With `build.renderThreads: 0` the worker renders in its own thread, watched as
 * `site build`'s is (render-watch.ts): a render that runs past build.renderTimeoutMs stops the publisher
 * (RENDER_TIMEOUT), and a stop signal is heard while one runs.
 */
import { Worker } from 'node:worker_threads'
import { errors } from '../errors.js'
import { compiledModuleUrl } from '../shared/compiled-module.js'
import { BUILD_WORKER_YOUNG_GENERATION_MB, fromSentError, type SentError } from './build-host.js'
import { createRenderCell, endWorkerMidRender, type RenderStarted, watchWorkerRenders } from './render-watch.js'

/** What the publish worker is asked to run: `site publish`'s flags. */
export interface PublishFlags {
  config?: string
  site?: string
  api?: string
  out?: string
  deploy?: string
  state?: string
  port: number
  host: string
}

export type FromPublishWorker =
  | { type: 'log'; line: string }
  | { type: 'ready'; url: string; stateDir: string; where: string; hooks: string[] }
  | RenderStarted
  | { type: 'failed'; error: SentError }
  | { type: 'closed' }

export type ToPublishWorker = { type: 'stop' }

export interface PublishWorkerData {
  flags: PublishFlags
  /** The cell of render-watch.ts. */
  renderCell: SharedArrayBuffer
}

export interface PublishHost {
  /** The server's origin (`http://127.0.0.1:4020`). */
  url: string
  /** The journal's folder. */
  stateDir: string
  /** Where a publish goes: the deploy target, or the output folder. */
  where: string
  /** The webhook paths a request can pass (`/hooks/typo3` with publish.webhooks, the others with publish.token). */
  hooks: string[]
  /** Rejects if the publisher stops on its own (an error it could not handle); never resolves. */
  failed: Promise<never>
  /** Stops accepting, ends or persists the publish in progress; resolves once the worker has closed. */
  close(): Promise<void>
}

const WORKER_URL = compiledModuleUrl(import.meta.url, 'publish-worker.js')

/** Starts the publisher in its worker; resolves once it listens, rejects with what stopped it from starting. */
export function startPublishInWorker(flags: PublishFlags, log: (line: string) => void): Promise<PublishHost> {
  const cell = createRenderCell()
  const worker = new Worker(WORKER_URL, {
    workerData: { flags, renderCell: cell.buffer as SharedArrayBuffer } satisfies PublishWorkerData,
    resourceLimits: { maxYoungGenerationSizeMb: BUILD_WORKER_YOUNG_GENERATION_MB },
  })
  let onReady: (ready: Extract<FromPublishWorker, { type: 'ready' }>) => void = () => {}
  let onEnd: (error: Error) => void = () => {}
  let onClosed: () => void = () => {}
  const ended = new Promise<never>((_, reject) => {
    // whatever ended it, the worker goes: its idle sockets (the API client's, a deploy target's) would keep the process alive
    onEnd = (error) => {
      renders.clear()
      reject(error)
      void worker.terminate()
    }
  })
  // what ended the worker, when the main thread did: its exit is told as that (a stop asked for is no failure)
  let endedBy: Error | 'stop' | undefined
  const renders = watchWorkerRenders(cell, ({ what, timeoutMs }) => {
    endedBy = errors.renderTimeout(what, timeoutMs)
    void endWorkerMidRender(worker)
  })
  // a rejection nobody waits on yet (before `failed` is read) is not an unhandled one
  ended.catch(() => {})
  const closed = new Promise<void>((done) => {
    onClosed = done
  })
  // Messages keep their order: every log line of the worker is printed before its 'closed'.
  worker.on('message', (message: FromPublishWorker) => {
    if (message.type === 'log') log(message.line)
    else if (message.type === 'ready') onReady(message)
    else if (message.type === 'rendering') renders.started(message)
    else if (message.type === 'failed') onEnd(fromSentError(message.error))
    else onClosed()
  })
  worker.on('error', (error) => onEnd(error))
  worker.on('exit', (code) => {
    if (endedBy === 'stop') renders.clear()
    else onEnd(endedBy ?? new Error(`The publisher stopped (exit code ${code})`))
    onClosed()
  })
  return new Promise((resolve, reject) => {
    ended.catch(reject)
    onReady = ({ url, stateDir, where, hooks }) =>
      resolve({
        url,
        stateDir,
        where,
        hooks,
        failed: ended,
        async close() {
          worker.postMessage({ type: 'stop' } satisfies ToPublishWorker)
          // a render that does not let the publisher close is ended: stopped as asked (the journal keeps its events)
          renders.stopping(() => {
            endedBy = 'stop'
            void endWorkerMidRender(worker)
          })
          try {
            // a failure while closing comes before 'closed'
            await Promise.race([closed, ended])
          } finally {
            await worker.terminate()
          }
        },
      })
  })
}
