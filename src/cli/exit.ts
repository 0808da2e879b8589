import { appendFileSync } from 'node:fs'
import { messageOf, redactSecrets } from '../errors.js'
import { type RunFailure, toRunFailure } from './failure.js'
import { formatFailureAnnotation, formatFailureStepSummary, isGithubActions } from './github.js'
import { toTerminalText } from './terminal.js'

export interface HandleErrorOptions {
  verbose?: boolean
  stderr?: NodeJS.WritableStream
  /** The command that failed (`build`, `preview`…), named in CI annotations; `site` by default. */
  command?: string
  /** The content API's origin, when the config was read (see failure.ts). */
  api?: string
  /** The exit code when the error's own is not the process's (a build stopped by a signal: 130 or 143). */
  exitCode?: number
  /** `GITHUB_ACTIONS` and `GITHUB_STEP_SUMMARY`; the process's environment by default. */
  env?: Record<string, string | undefined>
}

/**
 * The one place that turns an error into terminal output and an exit code:
 * 2 for bad usage or configuration, 1 for a failed job. One line (plus the
 * config issues or a hint); the stack only with `--verbose`. Under GitHub Actions
 * also an `::error` annotation and the step summary. URLs' credentials are never printed.
 */
export function handleError(error: unknown, options: HandleErrorOptions = {}): number {
  const failure = toRunFailure(error, {
    command: options.command ?? 'site',
    api: options.api,
    exitCode: options.exitCode,
  })
  reportFailure(failure, options)
  if (options.verbose && error instanceof Error) {
    const write = (text: string) => (options.stderr ?? process.stderr).write(`${toTerminalText(redactSecrets(text))}\n`)
    write(error.stack ?? '')
    if (error.cause instanceof Error) write(`Caused by: ${error.cause.stack ?? error.cause.message}`)
  }
  return failure.exitCode
}

/** The failure's lines on stderr, then what GitHub Actions shows of it (see reportToGithub). */
function reportFailure(failure: RunFailure, options: Pick<HandleErrorOptions, 'stderr' | 'env'> = {}): void {
  const stderr = options.stderr ?? process.stderr
  // Messages may quote API answers: each of their lines is escaped (src/cli/terminal.ts).
  stderr.write(`${toTerminalText(failure.message)}\n`)
  if (failure.hint) stderr.write(`${toTerminalText(failure.hint)}\n`)
  reportToGithub(failure, options)
}

/** Under GitHub Actions: the failure's `::error` annotation on stderr, and its Markdown appended to the step summary. */
export function reportToGithub(failure: RunFailure, options: Pick<HandleErrorOptions, 'stderr' | 'env'> = {}): void {
  const stderr = options.stderr ?? process.stderr
  const env = options.env ?? process.env
  if (!isGithubActions(env)) return
  stderr.write(`${formatFailureAnnotation(failure)}\n`)
  const summaryFile = env.GITHUB_STEP_SUMMARY
  if (!summaryFile) return
  try {
    appendFileSync(summaryFile, formatFailureStepSummary(failure))
  } catch (cause) {
    stderr.write(`${toTerminalText(`note: the step summary was not written to ${summaryFile}: ${messageOf(cause)}`)}\n`)
  }
}
