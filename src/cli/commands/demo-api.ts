import { startDemoApi } from '../../index.js'
import { handleError } from '../exit.js'
import { waitForShutdown } from './shutdown.js'

export interface DemoApiCommandOptions {
  port: number
  host: string
  latency: number
  generate?: number
  everyKind?: boolean
}

/** `site demo-api`: runs the bundled demo content API until SIGINT/SIGTERM. */
export async function runDemoApiCommand(opts: DemoApiCommandOptions, global: { verbose?: boolean }): Promise<number> {
  try {
    const api = await startDemoApi({
      port: opts.port,
      host: opts.host,
      latencyMs: opts.latency,
      generate: opts.generate ? { pagesPerLocale: opts.generate, everyKind: opts.everyKind === true } : undefined,
    })
    process.stdout.write(`Demo content API on ${api.url} (en /, pl /pl, de /de; initial data at /?type=834)\n`)
    await waitForShutdown()
    await api.close()
    return 0
  } catch (error) {
    return handleError(error, global)
  }
}
