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
    printLine(
      `Publishing to ${publisher.where}; webhooks at ${publisher.url}/hooks/typo3, status at ${publisher.url}/status`,
    )
    const signal = await Promise.race([shutdown, publisher.failed])
    printLine(`${signal}: stopping`)
    await publisher.close()
    return 0
  } catch (error) {
    return handleError(error, { verbose: global.verbose, command: 'publish' })
  }
}
