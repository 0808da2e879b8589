import { resolve } from 'node:path'
import { errors } from '../../errors.js'
import { parseDeploySpec, publishOptionsOf, resolveConfig, selectSite, startPublishServer } from '../../index.js'
import { handleError } from '../exit.js'
import { tuneHeapForBuild } from '../heap.js'
import { printLine } from '../terminal.js'
import { waitForShutdown } from './shutdown.js'

export interface PublishCommandOptions {
  config?: string
  site?: string
  api?: string
  out?: string
  deploy?: string
  state?: string
  port: number
  host: string
}

/**
 * `site publish`: the publisher, until SIGINT or SIGTERM; then it stops accepting, ends or persists the
 * publish in progress and exits 0.
 */
export async function runPublishCommand(opts: PublishCommandOptions, global: { verbose?: boolean }): Promise<number> {
  try {
    // React picks its development or production build when first loaded: a published site is production.
    process.env.NODE_ENV ??= 'production'
    // the publisher's builds are the build's: the same collector settings (heap.ts)
    tuneHeapForBuild({ execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS })
    const config = await resolveConfig({ configFile: opts.config, apiBaseUrl: opts.api, outDir: opts.out })
    const site = selectSite(config.sites, opts.site)
    const publish = { ...publishOptionsOf(config, site) }
    if (opts.deploy !== undefined) {
      const spec = parseDeploySpec(opts.deploy)
      if ('error' in spec) throw errors.usage(`--deploy ${JSON.stringify(opts.deploy)}: ${spec.error}`)
      publish.deploy = opts.deploy
    }
    const server = await startPublishServer({
      config,
      site,
      publish,
      host: opts.host,
      port: opts.port,
      stateDir: opts.state === undefined ? undefined : resolve(opts.state),
      log: printLine,
    })
    const where = publish.deploy ?? resolve(config.root, site.build.outDir)
    printLine(`Publishing to ${where}; webhooks at ${server.url}/hooks/typo3, status at ${server.url}/status`)
    const signal = await waitForShutdown()
    printLine(`${signal}: stopping (events not yet live stay in ${server.stateDir})`)
    await server.close()
    return 0
  } catch (error) {
    return handleError(error, global)
  }
}
