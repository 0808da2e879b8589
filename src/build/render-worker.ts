/**
 * A render worker (see render-pool.ts): loads the templates once, then runs the
 * render jobs the build's thread posts, one at a time.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads'
import { isSiteError, messageOf } from '../errors.js'
import { loadRenderer, type PageRenderer } from '../render/renderer.js'
import { ringWriter } from './byte-ring.js'
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
  const ring = ringWriter(ringBuffer)
  port.on('message', (message: ToWorker) => {
    if (message.type === 'start') {
      context = { ...message.context, renderer }
      return
    }
    try {
      if (!context) throw new Error('render job before start')
      if (message.type === 'not-found')
        return send({ type: 'done', id: message.id, output: runNotFoundJob(context, message.job) })
      const output = runPageJob(context, message.job)
      if (output.type !== 'page') return send({ type: 'done', id: message.id, output })
      const { files, slices, transfer } = handOverFiles(output.files, message.job.previous, ring)
      output.files = files
      port.postMessage({ type: 'done', id: message.id, output, slices } satisfies FromWorker, transfer)
    } catch (error) {
      send({ type: 'done', id: message.id, error: messageOf(error) })
    }
  })
  send({ type: 'ready' })
}

if (parentPort) await serve(parentPort, workerData as RenderWorkerData)
