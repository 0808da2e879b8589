/**
 * The image process: where a build's images are read and encoded (sharp), started at the first image a build
 * must look into and stopped when its media are done. A process rather than a thread, for two reasons:
 * - libvips decodes files from outside: one that crashes it fails the images it was reading, not the build;
 * - glibc gives each thread that allocates an arena of its own, and the pixel buffers left in a build's many
 *   arenas doubled its peak RSS (bench/media.mjs: 660 MB for 200 photographs). The image process starts with
 *   one arena (MALLOC_ARENA_MAX, which glibc reads only when a process starts) and returns all it held when it
 *   exits; the build's threads never load libvips at all.
 */
import { type ChildProcess, fork } from 'node:child_process'
import type { EncodedVariant, ImageSize } from './encode.js'
import type { VariantPlan } from './variants.js'

export type ImageRequest =
  | { id: number; type: 'probe'; bytes: Uint8Array }
  | { id: number; type: 'encode'; bytes: Uint8Array; plan: VariantPlan; limitInputPixels: number }

export type ImageReply = { id: number; result: ImageSize | EncodedVariant[] } | { id: number; error: string }

export interface ImageProcess {
  /** Width and height as displayed, from the header alone. */
  probe(bytes: Uint8Array): Promise<ImageSize>
  /** Every variant of a plan, widest first. */
  encode(bytes: Uint8Array, plan: VariantPlan, limitInputPixels: number): Promise<EncodedVariant[]>
  /** Stops the process: at once when requests are pending (a failed build), else once it has exited. */
  close(): Promise<void>
}

// Compiled, the entry sits beside this file; run from src/ (tests), it is taken from dist/ (test/global-setup.ts).
const ENTRY = new URL(
  import.meta.url.endsWith('.ts') ? '../../dist/media/image-process-main.js' : './image-process-main.js',
  import.meta.url,
)

/** Last characters of the image process's stderr kept for the message of a crash. */
const STDERR_TAIL_CHARS = 500

interface Pending {
  done(result: ImageSize | EncodedVariant[]): void
  fail(error: Error): void
}

export function createImageProcess(): ImageProcess {
  let child: ChildProcess | undefined
  let exited: Promise<void> = Promise.resolve()
  let nextId = 0
  const pending = new Map<number, Pending>()

  const start = (): ChildProcess => {
    const started = fork(ENTRY, [], {
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '1' },
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
        for (const waiting of pending.values()) waiting.fail(new Error(reason))
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

  const ask = <T extends ImageSize | EncodedVariant[]>(request: ImageRequest): Promise<T> => {
    child ??= start()
    const reply = new Promise<T>((done, fail) =>
      pending.set(request.id, { done: done as (result: ImageSize | EncodedVariant[]) => void, fail }),
    )
    child.send(request)
    return reply
  }

  return {
    probe: (bytes) => ask({ id: nextId++, type: 'probe', bytes }),
    encode: (bytes, plan, limitInputPixels) => ask({ id: nextId++, type: 'encode', bytes, plan, limitInputPixels }),
    async close() {
      const running = child
      if (!running) return exited
      child = undefined
      if (pending.size) running.kill('SIGKILL')
      else running.disconnect()
      return exited
    },
  }
}
