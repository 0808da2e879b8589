/**
 * A render worker (see render-pool.ts): loads the templates once, then runs the
 * render jobs the build's thread posts, one at a time. A page's files are encoded
 * straight into the worker's byte ring (byte-ring.ts) when it has room.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads'
import { isSiteError, messageOf } from '../../errors.js'
import { loadRenderer, type PageRenderer } from '../../render/renderer.js'
import { type RingRoom, ringWriter } from './byte-ring.js'
import { type ByteRoom, createRenderContext, ownRoom } from './render-files.js'
import { type JobContext, runNotFoundJob, runPageJob } from './render-jobs.js'
import { type FromWorker, handOverFiles, type RenderWorkerData, type ToWorker } from './render-pool.js'

async function serve(port: MessagePort, { root, ring: ringBuffer }: RenderWorkerData): Promise<void> {
  const send = (message: FromWorker) => port.postMessage(message)
  let renderer: PageRenderer
  try {
    renderer = await loadRenderer(root)
  } catch (error) {
    const code = isSiteError(error) ? error.code : 'RENDER_FAILED'
    send({
      type: 'load-failed',
      code,
      message: messageOf(error),
      hint: isSiteError(error) ? error.hint : undefined,
    })
    port.close()
    return
  }
  let context: JobContext | undefined
  /** Page jobs encode their files in the ring; a 404 page's file goes out in its message, so not there. */
  let pageContext: JobContext | undefined
  /** The ring's room the running page job took: every slice of it goes back to the build's thread. */
  let taken: RingRoom[] = []
  const ring = ringWriter(ringBuffer, (room) => taken.push(room))
  // A page's files go into the ring when it has room for their most bytes, and keep there what they took.
  const room: ByteRoom = (maxBytes, write) => {
    const reserved = ring.reserve(maxBytes)
    if (!reserved) return ownRoom(maxBytes, write)
    ring.shrink(reserved, write(reserved.bytes))
    return reserved.bytes
  }
  port.on('message', (message: ToWorker) => {
    if (message.type === 'start') {
      context = createRenderContext(message.context, renderer)
      pageContext = { ...context, room }
      return
    }
    taken = []
    try {
      if (!context || !pageContext) throw new Error('render job before start')
      if (message.type === 'not-found')
        return send({ type: 'done', id: message.id, output: runNotFoundJob(context, message.job) })
      const output = runPageJob(pageContext, message.job)
      if (output.type !== 'page') return send({ type: 'done', id: message.id, output, free: freeOf(taken) })
      const handed = handOverFiles(output.files, message.job.previous, ring, taken)
      output.files = handed.files
      const done: FromWorker = { type: 'done', id: message.id, output, slices: handed.slices, free: handed.free }
      port.postMessage(done, handed.transfer)
    } catch (error) {
      const code = isSiteError(error) ? error.code : undefined
      send({ type: 'done', id: message.id, error: messageOf(error), ...(code ? { code } : {}), free: freeOf(taken) })
    }
  })
  send({ type: 'ready' })
}

/** The slices of `rooms`, when there are any. */
const freeOf = (rooms: RingRoom[]) => (rooms.length > 0 ? rooms.map((room) => room.slice) : undefined)

if (parentPort) await serve(parentPort, workerData as RenderWorkerData)
