/**
 * Pure: a command that stopped before it had a result (the config, the templates, the initial data, a
 * port in use, a bad flag) as the one record every output of it is written from: the stderr lines,
 * `site build --json`, and under GitHub Actions the annotation and the step summary.
 */
import { asReported, isSiteError, redactSecrets, USAGE_CODES } from '../errors.js'

/** A stopped command: what, why, and what the run was talking to. */
export interface RunFailure {
  /** `build`, `preview`, `serve`, `demo-api`. */
  command: string
  /** The error's code (`INITIAL_DATA_UNAVAILABLE`, `CONFIG_INVALID`, `USAGE`…), `UNEXPECTED` for anything else. */
  kind: string
  /** The message, with the API's credentials hidden (`***`). */
  message: string
  hint?: string
  /** The content API's origin (never its userinfo, path or query), when the config was read. */
  api?: string
  /** 2 for bad usage, config or templates; 1 for a failed job. */
  exitCode: number
}

/** What `site build --json` prints when the build stopped before its first page. */
export interface FailedRunSummary {
  ok: false
  kind: string
  message: string
  hint?: string
  api?: string
  exitCode: number
}

export function toRunFailure(
  thrown: unknown,
  context: { command: string; api?: string; exitCode?: number },
): RunFailure {
  const error = asReported(thrown)
  const site = isSiteError(error)
  const text = (value: string) => redactSecrets(value)
  return {
    command: context.command,
    kind: site ? error.code : 'UNEXPECTED',
    message: text(error instanceof Error ? error.message : String(error)),
    ...(site && error.hint ? { hint: text(error.hint) } : {}),
    ...(context.api ? { api: context.api } : {}),
    exitCode: context.exitCode ?? (site && USAGE_CODES.has(error.code) ? 2 : 1),
  }
}

export function toFailedRunSummary(failure: RunFailure): FailedRunSummary {
  const { command: _command, ...summary } = failure
  return { ok: false, ...summary }
}
