import { handleError } from '../exit.js'
import { type PreviewFlags, startPreviewInWorker } from '../preview-host.js'
import { printLine } from '../terminal.js'
import { waitForShutdown } from './shutdown.js'

/** `site preview`: starts the preview server (in its worker, preview-host.ts), prints its URL, and runs until SIGINT/SIGTERM. */
export async function runPreviewCommand(opts: PreviewFlags, global: { verbose?: boolean }): Promise<number> {
  // React's production build unless asked otherwise (NODE_ENV=development shows React's warnings):
  // preview shows what the static site shows, at a fraction of the render cost. Set before the
  // worker starts (it takes this environment) and first imports the render core (and React).
  process.env.NODE_ENV ||= 'production'
  let api: string | undefined
  try {
    const server = await startPreviewInWorker(opts, {
      log: printLine,
      onApi: (origins) => {
        api = origins
      },
    })
    const shutdown = waitForShutdown()
    for (const line of server.lines) process.stdout.write(`${line}\n`)
    await Promise.race([shutdown, server.failed])
    await server.close()
    return 0
  } catch (error) {
    return handleError(error, { verbose: global.verbose, command: 'preview', api })
  }
}
