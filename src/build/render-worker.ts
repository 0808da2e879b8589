/**
 * A render worker (see render-pool.ts): loads the templates once, then runs the
 * render jobs the build's thread posts, one at a time.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads'
import { isSiteError, messageOf } from '../errors.js'
import { loadRenderer, type PageRenderer } from '../render/renderer.js'
import { type JobContext, runNotFoundJob, runPageJob } from './render-jobs.js'
import type { FromWorker, ToWorker } from './render-pool.js'
import { hashContents } from './write.js'

async function serve(port: MessagePort, root: string): Promise<void> {
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
  const encoder = new TextEncoder()
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
      // Encoded and hashed here and transferred, the page's files cost the build's thread neither a copy nor an
      // encoding nor a hash; a file with the previous output's bytes is not handed over at all.
      const transfer: ArrayBuffer[] = []
      if (output.type === 'page') {
        const previous = message.job.previous ?? []
        output.files = output.files.map((file, i) => {
          if (file.contents === undefined) return file
          const bytes = typeof file.contents === 'string' ? encoder.encode(file.contents) : file.contents
          const hash = hashContents(bytes)
          if (hash === previous[i]) return { path: file.path, hash }
          transfer.push(bytes.buffer as ArrayBuffer)
          return { path: file.path, contents: bytes, hash }
        })
      }
      port.postMessage({ type: 'done', id: message.id, output } satisfies FromWorker, transfer)
    } catch (error) {
      send({ type: 'done', id: message.id, error: messageOf(error) })
    }
  })
  send({ type: 'ready' })
}

if (parentPort) await serve(parentPort, (workerData as { root: string }).root)
