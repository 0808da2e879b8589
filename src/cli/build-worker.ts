/**
 * The build worker (see build-host.ts): resolves the config, builds, and posts the progress, the
 * log lines and the result (or the error) to the main thread; stops when the main thread says so.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { asReported, errors } from '../errors.js'
import type { BuildProgress } from '../index.js'
import type { BuildWorkerData, FromBuildWorker, ToBuildWorker } from './build-host.js'
import { toSentError } from './build-host.js'
import { PROGRESS_REDRAW_MS } from './progress.js'
import { watchRenders } from './render-watch.js'

/**
 * `loading`, or BUILD_INTERRUPTED once `signal` is aborted: a config that awaits what never settles (a vault that does
 * not answer) must not outlast a stop signal, which the build's own checks see only once it has its config.
 */
function untilStopped<T>(loading: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stop = () =>
      reject(errors.buildInterrupted(typeof signal.reason === 'string' ? signal.reason : 'an abort signal'))
    loading.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
    if (signal.aborted) stop()
    else signal.addEventListener('abort', stop, { once: true })
  })
}

async function buildHere(port: NonNullable<typeof parentPort>, { request, pageProgress, renderCell }: BuildWorkerData) {
  const send = (message: FromBuildWorker) => port.postMessage(message)
  const controller = new AbortController()
  port.on('message', (message: ToBuildWorker) => {
    if (message.type === 'abort') controller.abort(message.reason)
  })
  // Page events go over at most about as often as the bar is redrawn; the last one always does.
  let unsent: BuildProgress | undefined
  let sentAt = Number.NEGATIVE_INFINITY
  const flush = () => {
    if (unsent) send({ type: 'progress', event: unsent })
    unsent = undefined
    sentAt = performance.now()
  }
  const onProgress = (event: BuildProgress) => {
    if (event.type === 'locale') {
      flush()
      return send({ type: 'progress', event })
    }
    if (!pageProgress) return
    unsent = event
    if (performance.now() - sentAt >= PROGRESS_REDRAW_MS / 2) flush()
  }
  const {
    checkOutDir,
    createBuilder,
    lockBuildOutput,
    outDirOf,
    redactSecrets,
    resolveConfig,
    selectSite,
    siteRedactor,
    toApiOrigin,
  } = await import('../build-api.js')
  // Before the site is known, URLs' userinfo; after, its API password, query and header values as well.
  let redact = (text: string) => redactSecrets(text)
  try {
    // the port keeps this thread alive: not while the config loads, so that one awaiting what never settles fails
    // (config/load.ts) where the thread would wait for ever
    port.unref()
    const config = await untilStopped(resolveConfig(request.config), controller.signal).finally(() => port.ref())
    const site = selectSite(config.sites, request.site)
    redact = siteRedactor(site)
    const outDir = outDirOf(config.root, site)
    send({ type: 'site', site: { apiOrigin: toApiOrigin(site.api.baseUrl), outDir } })
    // Another `site build` into this folder would move its files in among this one's: it is refused while this one
    // runs (OUT_DIR_IN_USE). The lock goes as the build ends, before the main thread hears of it and ends this
    // thread (a stop signal ends the build too); a killed process's lock is taken over by the next build.
    checkOutDir(outDir, config.root)
    const unlock = await lockBuildOutput(outDir)
    // a one-shot use of a builder: one build, then its workers and connections are released
    const builder = createBuilder({
      ...{ config, site, warm: false },
      inlineRenderWatch: watchRenders(new Int32Array(renderCell), send),
    })
    try {
      const result = await builder
        .build({
          onProgress,
          logger: {
            info: (line) => send({ type: 'log', level: 'info', line: redact(line) }),
            warn: (line) => send({ type: 'log', level: 'warn', line: redact(line) }),
          },
          force: request.force,
          only: request.only,
          signal: controller.signal,
        })
        .finally(unlock)
      flush()
      // A failure's reason names the request it made (`GET http://user:pw@…`): the lines printed from it, the JSON
      // summary and the step summary name the API without its credentials, as the log lines above do.
      const hidden = <T extends object>(item: T): T =>
        Object.fromEntries(
          Object.entries(item).map(([key, value]) => [key, typeof value === 'string' ? redact(value) : value]),
        ) as T
      send({
        type: 'done',
        result: {
          ...result,
          failures: result.failures.map(hidden),
          skipped: result.skipped.map(hidden),
          notes: result.notes.map(redact),
        },
      })
    } finally {
      await builder.close()
    }
  } catch (error) {
    flush()
    send({ type: 'failed', error: toSentError(asReported(error), redact) })
  }
}

if (parentPort) await buildHere(parentPort, workerData as BuildWorkerData)
