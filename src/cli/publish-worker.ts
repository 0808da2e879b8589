/**
 * The publish worker (see publish-host.ts): resolves the config, starts the publisher and posts its log
 * lines to the main thread; closes it when the main thread says so, then posts `closed`.
 */
import { resolve } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import { asReported, errors } from '../errors.js'
import {
  parseDeploySpec,
  publishOptionsOf,
  redactSecrets,
  resolveConfig,
  selectSite,
  siteRedactor,
  startPublishServer,
} from '../publish-api.js'
import { toSentError } from './build-host.js'
import type { FromPublishWorker, PublishWorkerData, ToPublishWorker } from './publish-host.js'
import { watchRenders } from './render-watch.js'

async function publishHere(port: NonNullable<typeof parentPort>, { flags, renderCell }: PublishWorkerData) {
  const send = (message: FromPublishWorker) => port.postMessage(message)
  // what it says of an error names the API by its origin only, as a build's does (config/secrets.ts)
  let redact = (text: string) => redactSecrets(text)
  try {
    // not kept alive by its port while the config loads: one awaiting what never settles fails (config/load.ts)
    port.unref()
    const config = await resolveConfig({ configFile: flags.config, apiBaseUrl: flags.api, outDir: flags.out }).finally(
      () => port.ref(),
    )
    const site = selectSite(config.sites, flags.site)
    redact = siteRedactor(site)
    const publish = { ...publishOptionsOf(config, site) }
    if (flags.deploy !== undefined) {
      const spec = parseDeploySpec(flags.deploy)
      if ('error' in spec) throw errors.usage(`--deploy ${JSON.stringify(flags.deploy)}: ${spec.error}`)
      publish.deploy = flags.deploy
    }
    const server = await startPublishServer({
      config,
      site,
      publish,
      host: flags.host,
      port: flags.port,
      stateDir: flags.state === undefined ? undefined : resolve(flags.state),
      log: (line) => send({ type: 'log', line }),
      renderWatch: watchRenders(new Int32Array(renderCell), send),
    })
    port.once('message', async (message: ToPublishWorker) => {
      if (message.type !== 'stop') return
      try {
        await server.close()
        send({ type: 'closed' })
      } catch (error) {
        send({ type: 'failed', error: toSentError(asReported(error), redact) })
      }
    })
    const { url, stateDir, where, hooks } = server
    send({ type: 'ready', url, stateDir, where, hooks })
  } catch (error) {
    send({ type: 'failed', error: toSentError(asReported(error), redact) })
  }
}

if (parentPort) await publishHere(parentPort, workerData as PublishWorkerData)
