import { isSiteError, USAGE_CODES } from '../errors.js'
import { toTerminalText } from './terminal.js'

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
  // Messages may quote API answers: each of their lines is escaped (src/cli/terminal.ts).
  const write = (text: string) => stderr.write(`${toTerminalText(text)}\n`)
  write(message)
  if (isSiteError(error) && error.hint) write(error.hint)
  if (options.verbose && error instanceof Error) {
    write(error.stack ?? '')
    if (error.cause instanceof Error) write(`Caused by: ${error.cause.stack ?? error.cause.message}`)
  }
  return code
}
