/**
 * What a failed reload shows in open tabs (the error overlay, src/client/preview/): the problem's
 * title, message, file and line, and the code around it read from the file as it is now.
 */
import { readFile } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import { isSiteError } from '../errors.js'
import { isBuildFailure } from '../hydration/errors.js'
import type { PreviewProblem, TemplateLocation } from '../shared/contract.js'

/** Lines shown above and below the problem's line. */
const FRAME_CONTEXT_LINES = 2

/**
 * The lines around `line` (from 1), numbered, `>` on it and `^` under `column` (from 1).
 * Example: line 2, column 5 of `a\nb = (\nc` ->
 * `  1 | a\n> 2 | b = (\n    |     ^\n  3 | c`
 */
export function codeFrame(source: string, line: number, column: number): string {
  const lines = source.split(/\r?\n/)
  const first = Math.max(1, line - FRAME_CONTEXT_LINES)
  const last = Math.min(lines.length, line + FRAME_CONTEXT_LINES)
  const width = String(last).length
  const out: string[] = []
  for (let n = first; n <= last; n++) {
    out.push(`${n === line ? '>' : ' '} ${String(n).padStart(width)} | ${lines[n - 1] ?? ''}`)
    if (n === line) out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, column - 1))}^`)
  }
  return out.join('\n')
}

const titleOf = (error: unknown): string => {
  // before the compile check: a config that does not compile carries esbuild's failure too
  if (isSiteError(error) && error.code.startsWith('CONFIG_')) return 'Configuration is invalid'
  if (isBuildFailure(error) || (error instanceof Error && isBuildFailure(error.cause)))
    return 'Template failed to compile'
  if (isSiteError(error) && error.code === 'TEMPLATES_INVALID') return 'Templates failed to load'
  return 'Reload failed'
}

/** The overlay's problem for an error of a reload: where esbuild located it, with the code frame, when it did. */
export async function toPreviewProblem(root: string, error: unknown): Promise<PreviewProblem> {
  // Paths in it are shown relative to the project (the page may be open on another machine than preview's).
  const message = (error instanceof Error ? error.message : String(error))
    .split(`${resolve(root)}/`)
    .join('')
    .split(resolve(root))
    .join('the project')
  const failure = isBuildFailure(error) ? error : error instanceof Error ? error.cause : undefined
  const location = isBuildFailure(failure) ? failure.errors.find((m) => m.location)?.location : undefined
  const problem: PreviewProblem = { title: titleOf(error), message }
  // a template that compiles but throws as it loads: where its stack points (loadTemplates)
  const thrownAt = !location && isSiteError(error) ? (error as { at?: TemplateLocation }).at : undefined
  if (thrownAt) {
    Object.assign(problem, thrownAt)
    const source = await readFile(resolve(root, thrownAt.file), 'utf8').catch(() => undefined)
    if (source !== undefined) problem.frame = codeFrame(source, thrownAt.line, thrownAt.column)
    return problem
  }
  if (!location) return problem
  const file = resolve(root, location.file)
  Object.assign(problem, {
    file: relative(root, file).split('\\').join('/'),
    line: location.line,
    column: location.column + 1,
  })
  const source = await readFile(file, 'utf8').catch(() => undefined)
  problem.frame = codeFrame(source ?? location.lineText, source ? location.line : 1, location.column + 1)
  return problem
}
