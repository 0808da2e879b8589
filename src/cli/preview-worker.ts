/**
 * The preview worker (see preview-host.ts): resolves the config, starts the preview server with its renders
 * watched (render-watch.ts), and posts its log lines to the main thread; closes it when the main thread says so,
 * then posts `closed`.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { asReported } from '../errors.js'
import type { InlineConfig } from '../index.js'
import { toSentError } from './build-host.js'
import type { FromPreviewWorker, PreviewWorkerData, ToPreviewWorker } from './preview-host.js'
import { watchRenders } from './render-watch.js'

async function previewHere(port: NonNullable<typeof parentPort>, { flags, renderCell }: PreviewWorkerData) {
  const send = (message: FromPreviewWorker) => port.postMessage(message)
  try {
    const { redactSecrets, resolveConfig, selectSite, siteSecrets, startPreviewServer, toApiOrigin } = await import(
      '../index.js'
    )
    const inline: InlineConfig = {
      root: process.cwd(),
      ...(flags.config ? { configFile: flags.config } : {}),
      ...(flags.api ? { apiBaseUrl: flags.api } : {}),
      ...(flags.debug ? { debug: true } : {}),
    }
    const config = await resolveConfig(inline)
    // the sites it answers for: with --site that one only (the server refuses a host no site has)
    const sites = flags.site ? [selectSite(config.sites, flags.site)] : config.sites
    const origins = sites.map((s) => toApiOrigin(s.api.baseUrl)).join(', ')
    if (origins) send({ type: 'api', origins })
    const server = await startPreviewServer({
      config,
      host: flags.host,
      port: flags.port,
      watch: flags.watch,
      inline,
      log: (line) => send({ type: 'log', line }),
      ...(flags.site ? { site: flags.site } : {}),
      renderWatch: watchRenders(new Int32Array(renderCell), send),
    })
    port.once('message', async (message: ToPreviewWorker) => {
      if (message.type !== 'stop') return
      try {
        await server.close()
        send({ type: 'closed' })
      } catch (error) {
        send({ type: 'failed', error: toSentError(asReported(error)) })
      }
    })
    const hosts = sites.flatMap((s) => s.hostnames)
    const apis = [...new Set(sites.map((s) => redactSecrets(s.api.baseUrl, siteSecrets(s))))]
    send({
      type: 'ready',
      url: server.url,
      lines: [
        `Preview: ${server.url}/${sites.length > 1 ? ` (sites by Host header: ${hosts.join(', ')})` : ''}`,
        `API: ${apis.join(', ')}${flags.watch ? '; watching templates/, config/ and public/' : ''}`,
      ],
    })
  } catch (error) {
    send({ type: 'failed', error: toSentError(asReported(error)) })
  }
}

if (parentPort) await previewHere(parentPort, workerData as PreviewWorkerData)
