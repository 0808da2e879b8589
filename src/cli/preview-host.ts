/**
 * `site preview` runs its server in a worker thread (preview-worker.ts) so that a template caught in a loop
 * cannot take the whole command with it: the server renders pages in its own thread, and a render that never
 * ends would leave it deaf to every request, to saved fixes and to Ctrl-C. The main thread watches each render
 * (render-watch.ts). One that runs past the site's build.renderTimeoutMs ends the worker, the terminal says which
 * page it was, and the server starts again on the same port with the templates as they are on disk then (the
 * request that looped gets no answer; the open tabs reconnect). A stop signal is heard whatever the worker does.
 */
import { Worker } from 'node:worker_threads'
import { errors } from '../errors.js'
import { compiledModuleUrl } from '../shared/compiled-module.js'
import { fromSentError, type SentError } from './build-host.js'
import { createRenderCell, endWorkerMidRender, type RenderStarted, watchWorkerRenders } from './render-watch.js'

/** `site preview`'s flags. */
export interface PreviewFlags {
  config?: string
  site?: string
  api?: string
  port: number
  host: string
  watch: boolean
  debug?: boolean
}

export type FromPreviewWorker =
  | { type: 'log'; line: string }
  /** Once the config is read: the APIs by their origins (what a failure report may name). */
  | { type: 'api'; origins: string }
  /** It listens at `url`; `lines` are what the command prints once. */
  | { type: 'ready'; url: string; lines: string[] }
  | RenderStarted
  | { type: 'failed'; error: SentError }
  | { type: 'closed' }

export type ToPreviewWorker = { type: 'stop' }

export interface PreviewWorkerData {
  flags: PreviewFlags
  /** The cell of render-watch.ts. */
  renderCell: SharedArrayBuffer
}

export interface PreviewHost {
  /** The server's origin (`http://127.0.0.1:3000`). */
  url: string
  /** What to print once it listens: where, and which API. */
  lines: string[]
  /** Rejects if the server stops on its own (it could not start again, say); never resolves. */
  failed: Promise<never>
  /** Closes the server; resolves once the worker has ended. */
  close(): Promise<void>
}

const WORKER_URL = compiledModuleUrl(import.meta.url, 'preview-worker.js')

/** One worker's life: it listens once `ready` resolves, and `closed` resolves once it has ended. */
interface PreviewWorker {
  ready: Promise<{ url: string; lines: string[] }>
  /** Rejects if it fails or ends before it is closed (its render ended is not that: see `renderEnded`). */
  failed: Promise<never>
  stop(): Promise<void>
}

function startWorker(
  flags: PreviewFlags,
  io: {
    log: (line: string) => void
    onApi: (origins: string) => void
    /** A render ran too long and the worker was ended. */
    renderEnded: (render: RenderStarted) => void
  },
): PreviewWorker {
  const cell = createRenderCell()
  const worker = new Worker(WORKER_URL, {
    workerData: { flags, renderCell: cell.buffer as SharedArrayBuffer } satisfies PreviewWorkerData,
  })
  // once the worker is being ended (by its render, a failure or a stop), nothing it says or does counts; it is the
  // only preview worker while it runs, so its esbuild service is the one endWorkerMidRender ends
  let ending = false
  const end = () => {
    ending = true
    renders.clear()
    return endWorkerMidRender(worker)
  }
  let fail: (error: Error) => void = () => {}
  const failed = new Promise<never>((_, reject) => {
    fail = (error) => {
      if (ending) return
      void end()
      reject(error)
    }
  })
  failed.catch(() => {}) // read by whoever waits on this worker; never unhandled
  const renders = watchWorkerRenders(cell, (render) => {
    if (ending) return
    void end().then(() => io.renderEnded(render))
  })
  let onReady: (ready: { url: string; lines: string[] }) => void = () => {}
  const ready = new Promise<{ url: string; lines: string[] }>((resolve, reject) => {
    onReady = resolve
    failed.catch(reject)
  })
  let onClosed: () => void = () => {}
  const closed = new Promise<void>((resolve) => {
    onClosed = resolve
  })
  worker.on('message', (message: FromPreviewWorker) => {
    if (ending && message.type !== 'closed') return
    if (message.type === 'log') io.log(message.line)
    else if (message.type === 'api') io.onApi(message.origins)
    else if (message.type === 'ready') onReady(message)
    else if (message.type === 'rendering') renders.started(message)
    else if (message.type === 'failed') fail(fromSentError(message.error))
    else onClosed()
  })
  worker.on('error', (error) => fail(error))
  worker.on('exit', (code) => {
    fail(new Error(`The preview server stopped (exit code ${code})`))
    onClosed()
  })
  return {
    ready,
    failed,
    async stop() {
      worker.postMessage({ type: 'stop' } satisfies ToPreviewWorker)
      // a render that does not let the server close is ended
      renders.stopping(() => void end())
      await closed
      await end()
    },
  }
}

/** Starts the preview server in its worker; resolves once it listens, rejects with what kept it from starting. */
export async function startPreviewInWorker(
  flags: PreviewFlags,
  io: { log: (line: string) => void; onApi: (origins: string) => void },
): Promise<PreviewHost> {
  let failHost: (error: unknown) => void = () => {}
  const failed = new Promise<never>((_, reject) => {
    failHost = reject
  })
  failed.catch(() => {})
  let current: PreviewWorker
  let port = flags.port
  // the first worker to listen: one ended in a render before it said so (a request while its watcher started) is
  // followed by the next
  let listening: (ready: { url: string; lines: string[] }) => void = () => {}
  const firstReady = new Promise<{ url: string; lines: string[] }>((resolve) => {
    listening = resolve
  })
  const start = (): PreviewWorker => {
    const started = startWorker({ ...flags, port }, { ...io, renderEnded })
    started.failed.catch((error: unknown) => {
      if (started === current) failHost(error)
    })
    started.ready.then(listening, () => {})
    return started
  }
  // the server starts again where it listened, with the templates as they are now
  function renderEnded(render: RenderStarted) {
    io.log(`preview: ${errors.renderTimeout(render.what, render.timeoutMs).message}; the preview server starts again`)
    current = start()
    current.ready.then(() => io.log('preview: started again'), failHost)
  }
  current = start()
  const { url, lines } = await Promise.race([firstReady, failed])
  port = Number(new URL(url).port)
  return {
    url,
    lines,
    failed,
    close: () => current.stop(),
  }
}
