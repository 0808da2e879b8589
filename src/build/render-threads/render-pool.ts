/**
 * Where render jobs run. Render is CPU work: in worker threads (the default),
 * the build's thread (a worker of its own under `site build`) stays free for the
 * API's answers and for writes, and renders use more than one core. Inline (in
 * the build's thread) when a renderer is handed in, which is what tests do.
 */
import { setImmediate as yieldToIo } from 'node:timers/promises'
import { Worker } from 'node:worker_threads'
import { buildIssues, type ErrorCode, errors, isSiteError, SiteError } from '../../errors.js'
import type { PageRenderer } from '../../render/renderer.js'
import { compiledModuleUrl } from '../../shared/compiled-module.js'
import { hashContents } from '../output/write.js'
import {
  createByteRing,
  type RingReader,
  type RingRoom,
  type RingSlice,
  type RingWriter,
  ringReader,
} from './byte-ring.js'
import { createRenderContext, type PageFile } from './render-files.js'
import {
  type JobContext,
  type NotFoundJob,
  type NotFoundOutput,
  type PageJob,
  type PageOutput,
  runNotFoundJob,
  runPageJob,
} from './render-jobs.js'

export type SharedContext = Omit<JobContext, 'renderer' | 'shell'>

/** A page whose render could not run (a worker that died, a job before start()): a failure of that page. */
const renderCouldNotRun = (error: unknown): PageOutput => ({
  type: 'failed',
  ...buildIssues.renderFailed(error),
  renderMs: 0,
})

/** What a job renders, as a RENDER_TIMEOUT names it: the page's path, or `the 404 page (pl)`. */
const jobName = (job: PageJob | NotFoundJob): string => ('path' in job ? job.path : `the 404 page (${job.locale})`)

export interface RenderService {
  /** Resolves once the templates are loaded; rejects with TEMPLATES_INVALID and the like. */
  readonly ready: Promise<void>
  /** Hands over what every job shares; before the first job. */
  start(context: SharedContext): Promise<void>
  /**
   * Renders a page and hands its output to `use`, once: a render that could not run (a worker that died)
   * as a failed output. A page's files may borrow their bytes from the render worker (see byte-ring.ts):
   * they stay valid until what `use` returns settles, and not after. Rejects only with what `use` throws, and
   * with RENDER_TIMEOUT once a render ran too long (the build stops).
   */
  page<T>(job: PageJob, use: (output: PageOutput) => T | Promise<T>): Promise<T>
  notFound(job: NotFoundJob): Promise<NotFoundOutput>
  /**
   * The build will render at least this many pages (a full build: what its crawl found so far, or the previous
   * output's pages): a service that starts its workers on demand (createGrowingRenderService) starts them.
   */
  expect?(pages: number): void
  /** A worker died or failed to load the templates: every job fails from then on (a warm builder starts anew). */
  readonly broken?: boolean
  close(): Promise<void>
}

/** Messages of the render worker (render-worker.ts). */
export type ToWorker =
  | { type: 'start'; context: SharedContext }
  | { type: 'page'; id: number; job: PageJob }
  | { type: 'not-found'; id: number; job: NotFoundJob }
export type FromWorker =
  | { type: 'ready' }
  | { type: 'load-failed'; code: ErrorCode; message: string; hint?: string }
  | {
      type: 'done'
      id: number
      output?: PageOutput | NotFoundOutput
      error?: string
      /** The code of the job's error, when it had one (a 404 page's RENDER_FAILED). */
      code?: ErrorCode
      /** Where in the byte ring a page's files are, by index in its `files` (those handed over that way). */
      slices?: Array<RingSlice | undefined>
      /** Room of the byte ring the job took and no file holds (an unchanged document, a failed page): released at once. */
      free?: RingSlice[]
    }

/** What a render worker starts with: the project's root (its templates) and its byte ring's memory. */
export interface RenderWorkerData {
  root: string
  ring: SharedArrayBuffer
}

/** Runs each render of the build's thread, named as RENDER_TIMEOUT would name it (jobName): see RenderWatch. */
export type InlineRenderWatch = <T>(what: string, render: () => T) => T

/** Renders in the build's thread, one job per event-loop turn so that API answers are read first. */
export function createInlineRenderService(
  renderer: PageRenderer | Promise<PageRenderer>,
  watch: InlineRenderWatch = (_what, render) => render(),
): RenderService {
  const loaded = Promise.resolve(renderer)
  let context: JobContext | undefined
  const withContext = async (): Promise<JobContext> => {
    await yieldToIo()
    if (!context) throw new Error('render service used before start()')
    return context
  }
  return {
    ready: loaded.then(() => undefined),
    async start(shared) {
      context = createRenderContext(shared, await loaded)
    },
    async page(job, use) {
      let output: PageOutput
      try {
        const context = await withContext()
        output = watch(job.path, () => runPageJob(context, job))
      } catch (error) {
        output = renderCouldNotRun(error)
      }
      return use(output)
    },
    async notFound(job) {
      const context = await withContext()
      return watch(jobName(job), () => runNotFoundJob(context, job))
    },
    close: async () => {},
  }
}

/**
 * A one-shot build's default: renders in the build's thread until the build has asked for, or expects, more
 * than `inlinePages` pages; then starts the render workers and sends them the pages asked for once they are
 * ready. A small site or an `--only` build never pays for a worker's start (its own module graph, React,
 * templates bundle and esbuild service: 0.5-1 s of CPU, measured with bench/start.mjs); a large one renders
 * on another core from its first pages on. Workers that fail to start leave the pages to the build's
 * thread: the templates loaded there already.
 */
export function createGrowingRenderService(options: {
  inline: RenderService
  inlinePages: number
  pool: () => RenderService
}): RenderService {
  const { inline, inlinePages } = options
  let pool: RenderService | undefined
  let started: RenderService | undefined
  let setContext: (shared: SharedContext) => void = () => {}
  const context = new Promise<SharedContext>((resolve) => {
    setContext = resolve
  })
  let asked = 0
  // Workers may start before the build's context is known (the previous output was large): they load
  // the templates meanwhile, and take pages once they have both.
  const grow = (pages: number) => {
    if (pool || pages <= inlinePages) return
    const workers = options.pool()
    pool = workers
    Promise.all([workers.ready, context])
      .then(([, shared]) => workers.start(shared))
      .then(
        () => {
          started = workers
        },
        () => {},
      )
  }
  return {
    ready: inline.ready,
    async start(shared) {
      await inline.start(shared)
      setContext(shared)
    },
    expect: grow,
    page(job, use) {
      grow(++asked)
      return (started ?? inline).page(job, use)
    },
    notFound: (job) => (started ?? inline).notFound(job),
    async close() {
      await Promise.all([pool?.close(), inline.close()])
    },
  }
}

const WORKER_URL = compiledModuleUrl(import.meta.url, 'render-worker.js')

/**
 * Young-generation cap of a render worker. Each render makes short-lived garbage
 * (a whole HTML page); V8's larger default lets every worker grow by ~50 MB of
 * RSS for no speed gain worth having (measured with bench/build.mjs).
 */
const RENDER_WORKER_YOUNG_GENERATION_MB = 16

/**
 * Bytes of each render worker's byte ring: about fifty pages' files of the demo site. The build's thread
 * releases a page's bytes as soon as it has written them; a page that finds the ring full is transferred.
 */
const RENDER_WORKER_RING_BYTES = 4 * 1024 * 1024

/**
 * What a job's message moves to the worker instead of copying: an API answer's or a kept payload's
 * bytes (the build's thread is done with them), when their buffer is their own. A slice of a shared
 * buffer (Node's Buffer pool) is copied: transferring it would take the buffer from its other users.
 */
export function transferOf(job: PageJob | NotFoundJob): ArrayBuffer[] {
  const bytes = 'answer' in job ? job.answer.body : 'payload' in job ? job.payload : undefined
  const own = bytes !== undefined && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
  return own ? [bytes.buffer as ArrayBuffer] : []
}

interface Slot {
  worker: Worker
  /** Its jobs in the order it takes them: the first is the one it renders. */
  pending: Map<number, { what: string; resolve: (output: never) => void; reject: (error: Error) => void }>
  ring: RingReader
  /** Ends the worker once the job it renders has run for the render time limit (armed while it has jobs). */
  deadline?: NodeJS.Timeout
}

/** A job's output, and the byte ring slices its files' bytes are in until they are released. */
interface Borrowed {
  output: PageOutput | NotFoundOutput
  slices: RingSlice[]
  ring: RingReader
}

/**
 * `threads` render workers, each with its own copy of the templates. Jobs go to
 * the least busy one. The first worker loads the templates alone: the others
 * start once it is ready, so that they find the bundled templates cached
 * instead of writing the same cache file at the same time. A job that renders for longer than `timeoutMs`
 * (a template caught in a loop) ends its worker and breaks the pool: that page, the worker's other jobs and
 * every later one reject with RENDER_TIMEOUT naming it, and the build stops.
 */
export function createRenderPool(options: { root: string; threads: number; timeoutMs: number }): RenderService {
  const slots: Slot[] = []
  let nextId = 0
  let broken: Error | undefined
  let closing = false

  const fail = (slot: Slot, error: Error) => {
    broken ??= error
    clearTimeout(slot.deadline)
    for (const { reject } of slot.pending.values()) reject(error)
    slot.pending.clear()
  }
  // A worker takes its jobs one after the other: the first pending one has rendered since the worker's last
  // answer (or since it was sent, to a worker with nothing to do).
  const timedOut = (slot: Slot) => {
    const [rendering] = slot.pending.values()
    if (!rendering) return
    fail(slot, errors.renderTimeout(rendering.what, options.timeoutMs))
    void slot.worker.terminate()
  }
  // a cleared timer cannot be refreshed: one is made each time the worker has work again
  const armDeadline = (slot: Slot) => {
    if (slot.pending.size === 0) {
      clearTimeout(slot.deadline)
      slot.deadline = undefined
    } else if (slot.deadline) slot.deadline.refresh()
    else slot.deadline = setTimeout(() => timedOut(slot), options.timeoutMs).unref()
  }
  const spawn = (): Promise<void> => {
    const ring = createByteRing(RENDER_WORKER_RING_BYTES)
    const worker = new Worker(WORKER_URL, {
      workerData: { root: options.root, ring } satisfies RenderWorkerData,
      resourceLimits: { maxYoungGenerationSizeMb: RENDER_WORKER_YOUNG_GENERATION_MB },
    })
    const slot: Slot = { worker, pending: new Map(), ring: ringReader(ring) }
    slots.push(slot)
    return listen(slot, { fail, answered: armDeadline, closing: () => closing })
  }
  const others = Math.max(1, options.threads) - 1
  const ready = spawn().then(async () => {
    if (!closing) await Promise.all(Array.from({ length: others }, spawn))
  })
  ready.catch(() => {}) // observed by build(); this only keeps a late failure from being unhandled

  function run<T>(message: Omit<Extract<ToWorker, { id: number }>, 'id'>): Promise<T> {
    if (broken) return Promise.reject(broken)
    const slot = slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a))
    const id = nextId++
    return new Promise<T>((resolve, reject) => {
      slot.pending.set(id, { what: jobName(message.job), resolve: resolve as (output: never) => void, reject })
      if (slot.pending.size === 1) armDeadline(slot)
      const transfer = transferOf(message.job)
      slot.worker.postMessage({ ...message, id }, transfer)
    })
  }

  return {
    ready,
    get broken() {
      return broken !== undefined
    },
    start: async (context) => {
      for (const slot of slots) slot.worker.postMessage({ type: 'start', context } satisfies ToWorker)
    },
    async page(job, use) {
      let borrowed: Borrowed
      try {
        borrowed = await run<Borrowed>({ type: 'page', job })
      } catch (error) {
        // a page that rendered too long stops the build (the crawl ends with what a visit throws)
        if (isSiteError(error) && error.code === 'RENDER_TIMEOUT') throw error
        return use(renderCouldNotRun(error))
      }
      const { output, slices, ring } = borrowed
      try {
        return await use(output as PageOutput)
      } finally {
        for (const slice of slices) ring.release(slice)
      }
    },
    notFound: async (job) => (await run<Borrowed>({ type: 'not-found', job })).output as NotFoundOutput,
    close: async () => {
      closing = true
      for (const slot of slots) clearTimeout(slot.deadline)
      await Promise.all(slots.map((slot) => slot.worker.terminate()))
    },
  }
}

/** Wires a worker's messages; resolves when its templates are loaded. A worker that dies breaks the pool. */
function listen(
  slot: Slot,
  pool: { fail: (slot: Slot, error: Error) => void; answered: (slot: Slot) => void; closing: () => boolean },
): Promise<void> {
  const { fail } = pool
  return new Promise((resolve, reject) => {
    slot.worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') {
        pool.answered(slot) // loading the templates is not the first job's render time
        return resolve()
      }
      if (message.type === 'load-failed') {
        const error = new SiteError(message.code, message.message, { hint: message.hint })
        fail(slot, error)
        return reject(error)
      }
      const waiting = slot.pending.get(message.id)
      slot.pending.delete(message.id)
      pool.answered(slot)
      const borrowed = borrow(slot.ring, message)
      if (message.error === undefined) waiting?.resolve(borrowed as never)
      // Whatever a render job throws is a failed render (exit code 1), with the code it had.
      else waiting?.reject(new SiteError(message.code ?? 'RENDER_FAILED', message.error))
    })
    slot.worker.on('error', (error) => {
      const wrapped = new SiteError('RENDER_FAILED', `A render worker failed: ${error.message}`, { cause: error })
      fail(slot, wrapped)
      reject(wrapped)
    })
    slot.worker.on('exit', (code) => {
      if (pool.closing()) return
      const error = new SiteError('RENDER_FAILED', `A render worker stopped (exit code ${code})`)
      fail(slot, error)
      reject(error)
    })
  })
}

const encoder = new TextEncoder()

/**
 * A page's files as a render worker hands them over (see borrow for the other end): encoded and hashed
 * in the worker, so that the build's thread neither encodes nor hashes; a file with the previous output's
 * bytes (`previous`, by index) as its hash alone; the others' bytes in the byte ring (where `taken`, the
 * room the job took, holds them already, else put there), or transferred when it is full. Room of `taken`
 * that no file holds is `free`. If this throws, every room the job took is in `taken` for its caller to free
 * (render-worker.ts), as long as `ring` tells the caller of its puts (ringWriter's `onTake`).
 */
export function handOverFiles(
  files: PageFile[],
  previous: PageJob['previous'],
  ring: RingWriter,
  taken: readonly RingRoom[] = [],
): { files: PageFile[]; slices?: Array<RingSlice | undefined>; free?: RingSlice[]; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = []
  let slices: Array<RingSlice | undefined> | undefined
  const held = new Set<RingSlice>()
  const handed = files.map((file, i): PageFile => {
    if (file.contents === undefined) return file
    const bytes = typeof file.contents === 'string' ? encoder.encode(file.contents) : file.contents
    const hash = hashContents(bytes)
    if (hash === previous?.[i]) return { path: file.path, hash }
    const slice = taken.find((room) => room.bytes === bytes)?.slice ?? ring.put(bytes)
    if (!slice) {
      transfer.push(bytes.buffer as ArrayBuffer)
      return { path: file.path, contents: bytes, hash }
    }
    held.add(slice)
    slices ??= files.map(() => undefined)
    slices[i] = slice
    return { path: file.path, hash }
  })
  // taken may have grown meanwhile (a ring writer that tells its taker of every put)
  const free = taken.filter((room) => !held.has(room.slice)).map((room) => room.slice)
  return { files: handed, slices, transfer, ...(free.length > 0 ? { free } : {}) }
}

/**
 * A worker's output with its files' bytes in place: views of the byte ring where the worker put them there.
 * Ring room no file holds (`free`) is released here, whatever the job's outcome.
 */
export function borrow(ring: RingReader, message: Extract<FromWorker, { type: 'done' }>): Borrowed {
  const { output, slices: at = [], free = [] } = message
  for (const slice of free) ring.release(slice)
  const slices: RingSlice[] = []
  if (output && 'files' in output)
    output.files = output.files.map((file, i) => {
      const slice = at[i]
      if (!slice) return file
      slices.push(slice)
      return { path: file.path, hash: file.hash, contents: ring.view(slice) }
    })
  return { output: output as PageOutput | NotFoundOutput, slices, ring }
}
