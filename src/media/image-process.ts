/**
 * The image process: where the images a build's pages show are read and encoded (sharp), started at the first
 * such image a build must look into and stopped when its media are done (a share image's size is read from its
 * header in the build's thread: header.ts). It reads each image from the file the build wrote (or
 * kept) in its output: the bytes do not cross the pipe. A process rather than a thread, for two reasons:
 * - libvips decodes files from outside: one that crashes it fails that image, not the build (the images read
 *   with it are read again, one at a time, so that the next crash names the file that caused it);
 * - glibc gives each thread that allocates an arena of its own, and the pixel buffers left in a build's many
 *   arenas doubled its peak RSS (bench/media.mjs: 660 MB for 200 photographs). The image process starts with
 *   one arena and returns all it held when it exits; the build's threads never load libvips at all.
 *
 * glibc reads its tunables only when a process starts, so they are set here, each unless the user set it:
 * - MALLOC_ARENA_MAX=1: the one arena above;
 * - MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_: a build's pixel and output buffers (a few MB each) come
 *   from that arena and what is freed stays there for the next image, rather than going back to the system and
 *   being faulted in again. With the collection after each image (image-process-main.ts) that took 200
 *   photographs from 465-484 to 387-396 MB of peak RSS at the same wall time; the collection alone cost 25% more
 *   wall time (system time, for memory given back and taken again). The process exits after its build.
 */
import { type ChildProcess, fork } from 'node:child_process'
import pLimit from 'p-limit'
import { compiledModuleUrl } from '../shared/compiled-module.js'
import type { EncodedVariant, ImageSize } from './encode.js'
import type { VariantPlan } from './variants.js'

/** `file`: the absolute path of the image file, which stays as it is until the answer. */
export type ImageRequest =
  | { id: number; type: 'probe'; file: string }
  | { id: number; type: 'encode'; file: string; plan: VariantPlan; limitInputPixels: number }

export type ImageReply = { id: number; result: ImageSize | EncodedVariant[] } | { id: number; error: string }

export interface ImageProcess {
  /** Width and height as displayed, from the header of the image file `file` (an absolute path) alone. */
  probe(file: string): Promise<ImageSize>
  /** Every variant of a plan for the image file `file`, widest first. */
  encode(file: string, plan: VariantPlan, limitInputPixels: number): Promise<EncodedVariant[]>
  /** Stops the process: at once when requests are pending (a failed build), else once it has exited. */
  close(): Promise<void>
}

const ENTRY = compiledModuleUrl(import.meta.url, 'image-process-main.js')

/** glibc's tunables for the image process (see above): one arena, buffers up to 32 MB from it, nothing given back. */
const MALLOC_TUNABLES = {
  MALLOC_ARENA_MAX: '1',
  MALLOC_MMAP_THRESHOLD_: String(32 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(512 * 1024 * 1024),
}

/** Last characters of the image process's stderr kept for the message of a crash. */
const STDERR_TAIL_CHARS = 500

interface Pending {
  done(result: ImageSize | EncodedVariant[]): void
  fail(error: Error): void
}

/** The process stopped while this image was read with others: which of them made it stop is not known. */
class StrandedError extends Error {}

export function createImageProcess(): ImageProcess {
  let child: ChildProcess | undefined
  let exited: Promise<void> = Promise.resolve()
  let nextId = 0
  const pending = new Map<number, Pending>()
  /** The process close() stopped: its requests fail, as the build that closed it failed. */
  let stopping: ChildProcess | undefined
  // Once the process stopped under several images, one image at a time: a crash then fails only its own file.
  let alone = false
  const one = pLimit(1)
  /** close() calls: an image waiting its turn when the process is closed is not read. */
  let closes = 0

  const start = (): ChildProcess => {
    const started = fork(ENTRY, [], {
      // gc(): the process collects its garbage after each image (image-process-main.ts)
      execArgv: ['--expose-gc'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...MALLOC_TUNABLES, ...process.env },
    })
    let stderr = ''
    started.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS)
    })
    started.on('message', (reply: ImageReply) => {
      const waiting = pending.get(reply.id)
      pending.delete(reply.id)
      if ('error' in reply) waiting?.fail(new Error(reply.error))
      else waiting?.done(reply.result)
    })
    exited = new Promise((resolve) => {
      let ended = false
      const end = (reason: string) => {
        if (ended) return
        ended = true
        if (child === started) child = undefined
        const stranded = started !== stopping && pending.size > 1
        for (const waiting of pending.values()) waiting.fail(stranded ? new StrandedError(reason) : new Error(reason))
        pending.clear()
        resolve()
      }
      started.on('exit', (code, signal) => {
        const last = stderr.trim().split('\n').at(-1)
        end(`the image process stopped (${signal ?? `exit ${code}`})${last ? `: ${last}` : ''}`)
      })
      // it could not start, or a request could not be sent: 'exit' may never come (Node's docs)
      started.on('error', (error) => {
        end(`the image process failed: ${error.message}`)
        started.kill('SIGKILL')
      })
    })
    return started
  }

  const post = <T extends ImageSize | EncodedVariant[]>(request: ImageRequest): Promise<T> => {
    child ??= start()
    const reply = new Promise<T>((done, fail) =>
      pending.set(request.id, { done: done as (result: ImageSize | EncodedVariant[]) => void, fail }),
    )
    child.send(request)
    return reply
  }
  const send = <T extends ImageSize | EncodedVariant[]>(request: ImageRequest): Promise<T> => {
    if (!alone) return post<T>(request)
    const asked = closes
    return one(() =>
      asked === closes
        ? post<T>(request)
        : Promise.reject(new Error('the image process was stopped before this image')),
    )
  }
  const ask = <T extends ImageSize | EncodedVariant[]>(request: ImageRequest): Promise<T> =>
    send<T>(request).catch((error: unknown) => {
      if (!(error instanceof StrandedError)) throw error
      alone = true
      return send<T>(request)
    })

  return {
    probe: (file) => ask({ id: nextId++, type: 'probe', file }),
    encode: (file, plan, limitInputPixels) => ask({ id: nextId++, type: 'encode', file, plan, limitInputPixels }),
    async close() {
      closes++
      alone = false
      const running = child
      if (!running) return exited
      child = undefined
      stopping = running
      if (pending.size) running.kill('SIGKILL')
      else running.disconnect()
      return exited
    },
  }
}
