import { handleError } from '../exit.js'
import { createProgressReporter, isInteractive } from '../progress.js'
import { formatSummary, toBuildSummary } from '../report.js'

export interface BuildCommandOptions {
  config?: string
  site?: string
  api?: string
  out?: string
  concurrency?: number
  maxPages?: number
  maxPageBytes?: number
  json?: boolean
  progress: boolean
}

/**
 * `site build`: flags -> config -> build() -> summary. Exit code 0 when every
 * path was built, 1 when some failed (OUT then stays as it was), 2 for bad usage.
 */
export async function runBuildCommand(opts: BuildCommandOptions, global: { verbose?: boolean }): Promise<number> {
  const reporter = createProgressReporter({
    stream: process.stderr,
    interactive: isInteractive({ isTTY: process.stderr.isTTY, env: process.env, progress: opts.progress }),
  })
  try {
    // React picks its development or production build when first loaded: a site build is production.
    process.env.NODE_ENV ??= 'production'
    const { build, resolveConfig, selectSite } = await import('../../index.js')
    const config = await resolveConfig({
      configFile: opts.config,
      apiBaseUrl: opts.api,
      outDir: opts.out,
      concurrency: opts.concurrency,
      maxPages: opts.maxPages,
      maxPageBytes: opts.maxPageBytes,
    })
    const site = selectSite(config.sites, opts.site)
    const result = await build({ config, site, onProgress: reporter.onProgress, logger: reporter.logger })
    reporter.stop()
    if (opts.json) process.stdout.write(`${JSON.stringify(toBuildSummary(result), null, 2)}\n`)
    else process.stdout.write(formatSummary(result))
    return result.failures.length ? 1 : 0
  } catch (error) {
    reporter.stop()
    return handleError(error, global)
  }
}
