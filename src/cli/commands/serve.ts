import { resolve } from 'node:path'
import { DEFAULTS, isSiteError, projectFolderAbove, resolveConfig, startStaticServer } from '../../index.js'
import { handleError } from '../exit.js'
import { printLine } from '../terminal.js'
import { waitForShutdown } from './shutdown.js'

/**
 * The folder `site serve` serves without DIR: `build.outDir` of the config (which needs no API here), else
 * `.output/public`; in a folder of a project (`templates/`), the config's error tells to run it in the project's.
 */
async function defaultDir(root: string, configFile: string | undefined): Promise<string> {
  try {
    const config = await resolveConfig({ root, configFile, apiOptional: true })
    return resolve(root, config.sites[0]?.build.outDir ?? DEFAULTS.build.outDir)
  } catch (error) {
    if (!configFile && isSiteError(error) && error.code === 'CONFIG_NOT_FOUND' && !projectFolderAbove(root))
      return resolve(root, DEFAULTS.build.outDir)
    throw error
  }
}

/** `site serve [DIR]`: serves a built output as a static host would, until SIGINT/SIGTERM. */
export async function runServeCommand(
  dir: string | undefined,
  opts: { port: number; host: string; config?: string },
  global: { verbose?: boolean },
): Promise<number> {
  try {
    // an absolute DIR needs no current folder (it may have been removed since the shell entered it)
    const folder = dir ? resolve(dir) : await defaultDir(process.cwd(), opts.config)
    const server = await startStaticServer({ dir: folder, host: opts.host, port: opts.port, log: printLine })
    const shutdown = waitForShutdown()
    process.stdout.write(`Serving ${folder} at ${server.url}/\n`)
    await shutdown
    await server.close()
    return 0
  } catch (error) {
    return handleError(error, { verbose: global.verbose, command: 'serve' })
  }
}
