import { type DemoFault, describeDemoFault, initialDataFault, parseDemoFault, startDemoApi } from '../../index.js'
import { handleError } from '../exit.js'
import { waitForShutdown } from './shutdown.js'

export interface DemoApiCommandOptions {
  port: number
  host: string
  latency: number
  generate?: number
  everyKind?: boolean
  /** `--photos N`: large JPEG photographs and pages showing them. */
  photos?: number
  /** `--fail PATH=STATUS`, repeatable. */
  fail?: string[]
  /** `--fail-initial[=STATUS]`: true, or the status. */
  failInitial?: boolean | string
}

/** `site demo-api`: runs the bundled demo content API until SIGINT/SIGTERM. */
export async function runDemoApiCommand(opts: DemoApiCommandOptions, global: { verbose?: boolean }): Promise<number> {
  try {
    const faults: DemoFault[] = [
      ...(opts.fail ?? []).map(parseDemoFault),
      // an empty STATUS (`--fail-initial=`) is a bad one, refused as `--fail-initial 999` is, never dropped unsaid
      ...(opts.failInitial === undefined || opts.failInitial === false
        ? []
        : [initialDataFault(opts.failInitial === true ? undefined : opts.failInitial)]),
    ]
    const api = await startDemoApi({
      faults,
      port: opts.port,
      host: opts.host,
      latencyMs: opts.latency,
      generate: opts.generate ? { pagesPerLocale: opts.generate, everyKind: opts.everyKind === true } : undefined,
      photos: opts.photos ? { count: opts.photos } : undefined,
    })
    const shutdown = waitForShutdown()
    process.stdout.write(`Demo content API on ${api.url} (en /, pl /pl, de /de; initial data at /?type=834)\n`)
    if (faults.length) process.stdout.write(`Failing on purpose: ${faults.map(describeDemoFault).join(', ')}\n`)
    await shutdown
    await api.close()
    return 0
  } catch (error) {
    return handleError(error, { verbose: global.verbose, command: 'demo-api' })
  }
}
