/**
 * Pure: what a build adds under GitHub Actions (`GITHUB_ACTIONS=true`): an `::error` annotation per
 * failure and a `::warning` per broken link in content, and a Markdown summary of the report for
 * `$GITHUB_STEP_SUMMARY`. CMS text is escaped for the terminal first (src/cli/terminal.ts), then
 * as the workflow command's own syntax (or Markdown) wants it.
 */
import type { BuildResult } from '../index.js'
import { describeFailure, describeSkipped } from './diagnostics.js'
import type { RunFailure } from './failure.js'
import { toTerminalLine } from './terminal.js'

/** Rows of each table of the step summary (GitHub keeps at most 1 MiB of it); `--json` has them all. */
export const STEP_SUMMARY_MAX_ROWS = 100

type Failure = BuildResult['failures'][number]
type Skipped = BuildResult['skipped'][number]

export const isGithubActions = (env: Record<string, string | undefined>): boolean => env.GITHUB_ACTIONS === 'true'

// The runner's escapes (actions/toolkit `escapeData` / `escapeProperty`); `%` first.
const escapeData = (text: string): string =>
  toTerminalLine(text).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')
const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C')

/** A message of one line (any line break in it escaped as text), or of several lines (shown as such). */
const annotation = (level: 'error' | 'warning', title: string, message: string | readonly string[]): string =>
  `::${level} title=${escapeProperty(title)}::${typeof message === 'string' ? escapeData(message) : message.map(escapeData).join('%0A')}`

/** Broken links in page content: skipped items, but annotated, so that an editor sees them. */
const isBrokenLink = (item: Skipped): boolean => item.kind === 'BROKEN_CONTENT_LINK'

/** One workflow command a line: `::error title=BROKEN_NAV_LINK::/careers 404: broken link… [from /; page uid 1]`. */
export function formatAnnotations(result: Pick<BuildResult, 'failures' | 'skipped'>): string[] {
  return [
    ...result.failures.map((f) => annotation('error', `site build: ${f.kind}`, describeFailure(f))),
    ...result.skipped
      .filter(isBrokenLink)
      .map((s) => annotation('warning', `site build: ${s.kind}`, describeSkipped(s))),
  ]
}

/** Text in a Markdown table cell: escaped for the terminal, then every character Markdown or a table could read. */
const cell = (value: string | number | undefined): string =>
  value === undefined ? '' : toTerminalLine(String(value)).replace(/[\\`*_[\]<>|~&#!]/g, '\\$&')

const table = <T>(headers: string[], rows: readonly T[], row: (item: T) => Array<string | number | undefined>) => {
  const shown = rows.slice(0, STEP_SUMMARY_MAX_ROWS)
  return [
    `| ${headers.join(' | ')} |`,
    `| ${headers.map(() => '---').join(' | ')} |`,
    ...shown.map((item) => `| ${row(item).map(cell).join(' | ')} |`),
    ...(rows.length > shown.length
      ? ['', `… and ${rows.length - shown.length} more (\`site build --json\` lists them all).`]
      : []),
    '',
  ]
}

const failureRow = (f: Failure) => [f.kind, f.path, f.status, f.reason, f.from, f.pageUid, f.elementUid]
const linkRow = (s: Skipped) => [s.item, s.status, s.from, s.pageUid, s.elementUid]

/** The report as Markdown: outcome, pages per locale, failures, broken links with the records to fix. */
export function formatStepSummary(result: BuildResult): string {
  const ok = result.failures.length === 0
  const brokenLinks = result.skipped.filter(isBrokenLink)
  const lines = [
    `## site build: ${ok ? 'done' : `failed, ${result.failures.length} failure(s)`}`,
    '',
    `${result.pages.total} page(s) in ${(result.durationMs / 1000).toFixed(1)} s; ${result.skipped.length} skipped item(s); ${
      ok ? `output in ${cell(result.outDir)}` : 'the previous output was left as it was'
    }.`,
    '',
    ...table(['locale', 'pages'], Object.entries(result.pages.byLocale), ([locale, n]) => [locale, n]),
  ]
  if (!ok)
    lines.push(
      `### Failures (${result.failures.length})`,
      '',
      ...table(['kind', 'path', 'status', 'reason', 'from', 'page uid', 'element uid'], result.failures, failureRow),
    )
  if (brokenLinks.length)
    lines.push(
      `### Broken links in content (${brokenLinks.length})`,
      '',
      ...table(['link', 'status', 'linked from', 'page uid', 'element uid'], brokenLinks, linkRow),
    )
  if (result.notes.length) lines.push('### Notes', '', ...result.notes.map((note) => `- ${cell(note)}`), '')
  return `${lines.join('\n')}\n`
}

/** What the run was talking to: `API http://127.0.0.1:4010`, and where a build's output stands. */
const runContext = (failure: RunFailure): string[] => [
  ...(failure.api ? [`API: ${failure.api}`] : []),
  `exit code ${failure.exitCode}`,
  ...(failure.command === 'build' ? ['the previous output was left as it was'] : []),
]

/** `site build`, or `site` for a flag refused before any command. */
const commandTitle = (failure: RunFailure): string => (failure.command === 'site' ? 'site' : `site ${failure.command}`)

/** `::error title=site build%3A INITIAL_DATA_UNAVAILABLE::Initial Data is unavailable: …%0AAPI: http://…`. */
export function formatFailureAnnotation(failure: RunFailure): string {
  const lines = [
    ...failure.message.split('\n'),
    ...(failure.hint ? [failure.hint] : []),
    runContext(failure).join('; '),
  ]
  return annotation('error', `${commandTitle(failure)}: ${failure.kind}`, lines)
}

/** A command that stopped before its first result, as Markdown for `$GITHUB_STEP_SUMMARY`. */
export function formatFailureStepSummary(failure: RunFailure): string {
  // A quote, each line escaped as a cell is (no fence that CMS text in a message could close).
  const quote = (text: string) => text.split('\n').map((line) => `> ${cell(line.trim())}  `)
  return `${[
    `## ${commandTitle(failure)}: failed (${cell(failure.kind)})`,
    '',
    ...quote(failure.message),
    '',
    ...(failure.hint ? [cell(failure.hint), ''] : []),
    `${runContext(failure).map(cell).join('; ')}.`,
    '',
  ].join('\n')}\n`
}
