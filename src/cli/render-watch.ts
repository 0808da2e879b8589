/**
 * A render in a worker's own thread (`site build`'s build worker rendering a small site, or with
 * `build.renderThreads: 0`; `site publish`'s worker with `renderThreads: 0`; `site preview`'s server), watched
 * from the main thread: a template caught in a loop
 * holds the thread it renders in, which then hears neither its own timers nor a stop signal. The worker says which
 * render it starts and keeps that render's number in a cell both threads share; the main thread ends the worker when
 * that render has run for its time limit, or still runs a moment after a stop signal. Who ends a render is settled
 * on the cell by compare-and-exchange: a render that ends just as the main thread gives up on it waits to be ended,
 * so the worker is never ended past its renders (while a build moves its files into the output folder, say).
 */
import { readdir, readFile } from 'node:fs/promises'
import type { Worker } from 'node:worker_threads'
import type { RenderWatch } from '../build-api.js'

/**
 * How long a render may still run after a stop signal before its worker is ended: the signal is heard between
 * renders, and a render takes milliseconds unless a template loops.
 */
const STOP_GRACE_MS = 1000

/** The cell's value once the main thread has ended the render (0: no render runs; n > 0: render n runs). */
const RENDER_ENDED = -1

/** What the worker tells the main thread as a render starts. */
export interface RenderStarted {
  type: 'rendering'
  render: number
  what: string
  timeoutMs: number
}

export const createRenderCell = (): Int32Array => new Int32Array(new SharedArrayBuffer(4))

/** The worker's side: runs each render with its number in the cell, after telling `started` of it. */
export function watchRenders(cell: Int32Array, started: (render: RenderStarted) => void): RenderWatch {
  let count = 0
  return ({ what, timeoutMs }, run) => {
    const render = ++count
    Atomics.store(cell, 0, render)
    started({ type: 'rendering', render, what, timeoutMs })
    try {
      return run()
    } finally {
      // the main thread took this render as ended and ends this thread, which must do nothing more meanwhile
      if (Atomics.compareExchange(cell, 0, render, 0) !== render) Atomics.wait(cell, 0, RENDER_ENDED)
    }
  }
}

/**
 * Whether the main thread may end the worker now, because render `render` (any render, when undefined) still
 * runs; the worker then does nothing more.
 */
function endRender(cell: Int32Array, render?: number): boolean {
  const running = render ?? Atomics.load(cell, 0)
  return running > 0 && Atomics.compareExchange(cell, 0, running, RENDER_ENDED) === running
}

/** The main thread's side, for one worker: its deadlines, cleared by `clear()` once it is done with the worker. */
export interface RenderWatcher {
  /** The worker started a render: `timedOut` is called if it still runs `timeoutMs` from now (the worker must be ended). */
  started(render: RenderStarted): void
  /** A stop was asked: `stuck` is called if a render still runs a second from now (the worker must be ended). */
  stopping(stuck: () => void): void
  clear(): void
}

export function watchWorkerRenders(cell: Int32Array, timedOut: (render: RenderStarted) => void): RenderWatcher {
  let deadline: NodeJS.Timeout | undefined
  let grace: NodeJS.Timeout | undefined
  return {
    started(render) {
      clearTimeout(deadline)
      deadline = setTimeout(() => {
        if (endRender(cell, render.render)) timedOut(render)
      }, render.timeoutMs)
    },
    stopping(stuck) {
      grace ??= setTimeout(() => {
        if (endRender(cell)) stuck()
      }, STOP_GRACE_MS)
    },
    clear() {
      clearTimeout(deadline)
      clearTimeout(grace)
    },
  }
}

/**
 * Ends a worker whose render the main thread took as ended, its esbuild service first (endEsbuildServices);
 * resolves once it has ended.
 */
export const endWorkerMidRender = (worker: Worker): Promise<unknown> =>
  endEsbuildServices()
    .catch(() => {})
    .then(() => worker.terminate())

/**
 * Ends the esbuild services this process started (on Linux, read from /proc; elsewhere nothing is done). A worker
 * ended in a render leaves its service (preview's bundler, a warm builder's) with nobody to answer its keep-alive,
 * and the service says so with a Go stack trace on the shared stderr as it exits; ended first, it goes quietly.
 */
async function endEsbuildServices(): Promise<void> {
  const tasks = await readdir('/proc/self/task').catch(() => [] as string[])
  for (const task of tasks) {
    const children = await readFile(`/proc/self/task/${task}/children`, 'utf8').catch(() => '')
    for (const pid of children.split(' ').filter(Boolean)) {
      const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
      if (/esbuild\0--service=/.test(command)) process.kill(Number(pid), 'SIGKILL')
    }
  }
}
