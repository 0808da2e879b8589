import { appendFile } from 'node:fs/promises'
import { isSiteError, messageOf } from '../../errors.js'
import type { BuildResult, InlineConfig } from '../../index.js'
import { runBuildInWorker } from '../build-host.js'
import { formatDiagnostics } from '../diagnostics.js'
import { handleError } from '../exit.js'
import { toFailedRunSummary, toRunFailure } from '../failure.js'
import { formatAnnotations, formatStepSummary, isGithubActions } from '../github.js'
import { tuneHeapForBuild } from '../heap.js'
import { createProgressReporter, isInteractive } from '../progress.js'
import { formatSummary, toBuildSummary } from '../report.js'
import { toTerminalLine } from '../terminal.js'
import { onStopSignals, SIGNAL_EXIT_CODES, type StopSignal } from './shutdown.js'

export interface BuildCommandOptions {
  config?: string
  site?: string
  api?: string
  out?: string
  concurrency?: number
  maxPages?: number
  maxPageBytes?: number
  /** `--media link|copy|optimize` (checked with the option's rule). */
  media?: string
  json?: boolean
  progress: boolean
  force?: boolean
  only?: string[]
}

/**
 * On stderr, whatever stdout carries: a line per failure, skipped item and note; under GitHub Actions
 * also their annotations, and the report's Markdown appended to `$GITHUB_STEP_SUMMARY` (the CLI's own
 * output channel, like stdout, hence written here).
 */
async function writeDiagnostics(result: BuildResult, env: Record<string, string | undefined>): Promise<void> {
  const lines = formatDiagnostics(result).map(toTerminalLine)
  if (isGithubActions(env)) lines.push(...formatAnnotations(result))
  if (lines.length) process.stderr.write(`${lines.join('\n')}\n`)
  const summaryFile = env.GITHUB_STEP_SUMMARY
  if (!isGithubActions(env) || !summaryFile) return
  try {
    await appendFile(summaryFile, formatStepSummary(result))
  } catch (error) {
    const reason = messageOf(error)
    process.stderr.write(`${toTerminalLine(`note: the step summary was not written to ${summaryFile}: ${reason}`)}\n`)
  }
}

/**
 * `site build`: flags -> config -> build() in the build worker (build-host.ts) -> summary. Exit code 0 when every
 * path was built, 1 when some failed (OUT then stays as it was), 2 for bad usage.
 */
export async function runBuildCommand(opts: BuildCommandOptions, global: { verbose?: boolean }): Promise<number> {
  const interactive = isInteractive({ isTTY: process.stderr.isTTY, env: process.env, progress: opts.progress })
  const reporter = createProgressReporter({ stream: process.stderr, interactive })
  const controller = new AbortController()
  const release = onStopSignals(controller)
  let api: string | undefined
  try {
    // React picks its development or production build when first loaded: a site build is production.
    process.env.NODE_ENV ||= 'production'
    tuneHeapForBuild({ execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS })
    const config = {
      configFile: opts.config,
      apiBaseUrl: opts.api,
      outDir: opts.out,
      concurrency: opts.concurrency,
      maxPages: opts.maxPages,
      maxPageBytes: opts.maxPageBytes,
      media: opts.media as InlineConfig['media'],
    }
    const result = await runBuildInWorker(
      { config, site: opts.site, force: opts.force, only: opts.only },
      {
        onProgress: reporter.onProgress,
        logger: reporter.logger,
        signal: controller.signal,
        pageProgress: interactive,
        onSite: (site) => {
          api = site.apiOrigin || undefined
        },
      },
    )
    reporter.stop()
    await writeDiagnostics(result, process.env)
    if (opts.json) process.stdout.write(`${JSON.stringify(toBuildSummary(result), null, 2)}\n`)
    else process.stdout.write(formatSummary(result))
    return result.failures.length ? 1 : 0
  } catch (error) {
    reporter.stop()
    // stopped by a signal, the process exits as shells report that signal, and every report says so
    const exitCode =
      isSiteError(error) && error.code === 'BUILD_INTERRUPTED'
        ? SIGNAL_EXIT_CODES[controller.signal.reason as StopSignal]
        : undefined
    const code = handleError(error, { verbose: global.verbose, command: 'build', api, exitCode })
    // A pipeline reading stdout gets a summary whatever stopped the build: `ok: false` and the failure's kind.
    if (opts.json)
      process.stdout.write(
        `${JSON.stringify(toFailedRunSummary(toRunFailure(error, { command: 'build', api, exitCode })), null, 2)}\n`,
      )
    return code
  } finally {
    release()
  }
}
