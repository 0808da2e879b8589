import { isSiteError, USAGE_CODES } from '../errors.js'

/**
 * The one place that turns an error into terminal output and an exit code:
 * 2 for bad usage or configuration, 1 for a failed job. One line (plus the
 * config issues or a hint); the stack only with `--verbose`.
 */
export function handleError(
  error: unknown,
  options: { verbose?: boolean; stderr?: NodeJS.WritableStream } = {},
): number {
  const stderr = options.stderr ?? process.stderr
  const code = isSiteError(error) && USAGE_CODES.has(error.code) ? 2 : 1
  const message = error instanceof Error ? error.message : String(error)
  stderr.write(`${message}\n`)
  if (isSiteError(error) && error.hint) stderr.write(`${error.hint}\n`)
  if (options.verbose && error instanceof Error) {
    stderr.write(`${error.stack ?? ''}\n`)
    if (error.cause instanceof Error) stderr.write(`Caused by: ${error.cause.stack ?? error.cause.message}\n`)
  }
  return code
}
