/**
 * A render in the build worker's own thread (a small site, or `build.renderThreads: 0`), watched from the main
 * thread (build-host.ts): a template caught in a loop holds the build's thread, which then hears neither its own
 * timers nor a stop signal. The worker says which render it starts and keeps that render's number in a cell both
 * threads share; the main thread ends the worker when that render has run for the time limit, or still runs a
 * moment after a stop signal. Who ends a render is settled on the cell by compare-and-exchange: a render that
 * ends just as the main thread gives up on it waits to be ended, so the worker is never ended past its renders
 * (while it moves its files into the output folder, say).
 */
import type { InlineRenderWatch } from '../build-api.js'

/** The cell's value once the main thread has ended the render (0: no render runs; n > 0: render n runs). */
const RENDER_ENDED = -1

export const createRenderCell = (): Int32Array => new Int32Array(new SharedArrayBuffer(4))

/** The worker's side: runs each render with its number in the cell, after telling `started` of it. */
export function watchRenders(cell: Int32Array, started: (render: number, what: string) => void): InlineRenderWatch {
  let count = 0
  return (what, render) => {
    const number = ++count
    Atomics.store(cell, 0, number)
    started(number, what)
    try {
      return render()
    } finally {
      // the main thread took this render as ended and ends this thread, which must do nothing more meanwhile
      if (Atomics.compareExchange(cell, 0, number, 0) !== number) Atomics.wait(cell, 0, RENDER_ENDED)
    }
  }
}

/**
 * The main thread's side: whether it may end the worker now, because render `number` (any render, when undefined)
 * still runs; the worker then does nothing more.
 */
export function endRender(cell: Int32Array, number?: number): boolean {
  const running = number ?? Atomics.load(cell, 0)
  return running > 0 && Atomics.compareExchange(cell, 0, running, RENDER_ENDED) === running
}
