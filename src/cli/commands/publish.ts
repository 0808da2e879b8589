import { handleError } from '../exit.js'
import { tuneHeapForBuild } from '../heap.js'
import { type PublishFlags, startPublishInWorker } from '../publish-host.js'
import { printLine } from '../terminal.js'
import { waitForShutdown } from './shutdown.js'

/**
 * `site publish`: the publisher (in its worker, publish-host.ts), until SIGINT or SIGTERM; then it stops
 * accepting, ends or persists the publish in progress and exits 0.
 */
export async function runPublishCommand(opts: PublishFlags, global: { verbose?: boolean }): Promise<number> {
  try {
    // React picks its development or production build when first loaded: a published site is production.
    process.env.NODE_ENV ||= 'production'
    // the publisher's builds are the build's: the same collector settings (heap.ts)
    tuneHeapForBuild({ execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS })
    const publisher = await startPublishInWorker(opts, printLine)
    const shutdown = waitForShutdown()
    const { url, hooks } = publisher
    // a publisher no webhook can reach (a fresh project) says so, rather than point a CMS at a URL that answers 401
    const webhooks = hooks.length
      ? `webhooks at ${hooks.map((path) => `${url}${path}`).join(', ')}`
      : 'no webhook can reach it (set publish.webhooks or publish.token): it publishes on its reconciles only'
    printLine(`Publishing to ${publisher.where}; ${webhooks}, status at ${url}/status`)
    const signal = await Promise.race([shutdown, publisher.failed])
    printLine(`${signal}: stopping`)
    await publisher.close()
    return 0
  } catch (error) {
    return handleError(error, { verbose: global.verbose, command: 'publish' })
  }
}
