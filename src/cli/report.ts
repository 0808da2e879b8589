/**
 * Pure: the build summary, as text for people and as JSON for pipelines.
 */
import type { BuildResult } from '../index.js'
import { toTerminalLine } from './terminal.js'

/** Redirects and skipped items printed in the text summary; the JSON summary has them all. */
const SUMMARY_MAX_ITEMS = 50

export interface BuildSummary {
  ok: boolean
  buildId: string
  outDir: string
  pages: { total: number; byLocale: Record<string, number> }
  redirects: BuildResult['redirects']
  failures: BuildResult['failures']
  skipped: BuildResult['skipped']
  notes: string[]
  missingTemplates: BuildResult['missingTemplates']
  filesWritten: number
  bytesWritten: number
  /** Files of the previous output left as they were. */
  filesKept: number
  /** Pages added, changed, removed and unchanged since the previous output. */
  changes: BuildResult['changes']
  /** What `--only` did, when it was given. */
  only?: BuildResult['only']
  /** What the build did with the CMS's files (media 'copy' or 'optimize'). */
  media?: BuildResult['media']
  durationMs: number
  pagesPerSecond: number
  timings: BuildResult['timings']
}

const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits

export function toBuildSummary(result: BuildResult): BuildSummary {
  return {
    ok: result.failures.length === 0,
    buildId: result.buildId,
    outDir: result.outDir,
    pages: { total: result.pages.total, byLocale: result.pages.byLocale },
    redirects: result.redirects,
    failures: result.failures,
    skipped: result.skipped,
    notes: result.notes,
    missingTemplates: result.missingTemplates,
    filesWritten: result.filesWritten,
    bytesWritten: result.bytesWritten,
    filesKept: result.filesKept,
    changes: result.changes,
    ...(result.only ? { only: result.only } : {}),
    ...(result.media ? { media: result.media } : {}),
    durationMs: Math.round(result.durationMs),
    pagesPerSecond: result.durationMs > 0 ? round((result.pages.total * 1000) / result.durationMs) : 0,
    timings: {
      apiWaitMs: Math.round(result.timings.apiWaitMs),
      renderMs: Math.round(result.timings.renderMs),
      writeMs: Math.round(result.timings.writeMs),
    },
  }
}

/** `1536` -> `1.5 KB` */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`
}

const list = <T>(title: string, items: readonly T[], line: (item: T) => string, max = Infinity): string[] => {
  if (items.length === 0) return [`${title}: 0`]
  const shown = items.slice(0, max).map((item) => `  ${line(item)}`)
  const more = items.length > max ? [`  … and ${items.length - max} more (--json lists them all)`] : []
  return [`${title} (${items.length}):`, ...shown, ...more]
}

/**
 * `Changes: 1 added, 2 changed, 0 removed, 54 unchanged` and the paths (up to SUMMARY_MAX_ITEMS of each kind),
 * then the slug changes (`/pl/o-nas -> /pl/o-firmie`).
 */
function changeLines(changes: BuildSummary['changes']): string[] {
  const { added, changed, removed, unchanged } = changes.pages
  const paths = (mark: string, list: string[]) => [
    ...list.slice(0, SUMMARY_MAX_ITEMS).map((path) => `  ${mark} ${path}`),
    ...(list.length > SUMMARY_MAX_ITEMS
      ? [`  ${mark} … and ${list.length - SUMMARY_MAX_ITEMS} more (--json lists them all)`]
      : []),
  ]
  // Nothing to compare with (a first build): a list of every page says nothing.
  if (added.length && !changed.length && !removed.length && !unchanged && !changes.slugs.length)
    return [`Changes: every page is new (${added.length}); no previous output to compare with`]
  return [
    `Changes: ${added.length} added, ${changed.length} changed, ${removed.length} removed, ${unchanged} unchanged`,
    ...paths('+', added),
    ...paths('~', changed),
    ...paths('-', removed),
    ...(changes.slugs.length
      ? list(
          'Slug changes (old path now redirects, 301)',
          changes.slugs,
          (s) => `${s.from} -> ${s.to}`,
          SUMMARY_MAX_ITEMS,
        )
      : []),
  ]
}

/** What `--only` did: how many pages it asked for again, or why it built every page. */
function onlyLines(only: BuildSummary['only']): string[] {
  if (!only) return []
  if (only.fallback !== undefined) return [`Only: every page was built, as ${only.fallback}`]
  const rendered = only.rerenderedLocales.length
    ? `; every page of ${only.rerenderedLocales.join(', ')} rendered again from kept data`
    : ''
  return [`Only: ${only.refetched.length} page(s) asked of the API again for ${only.requested.join(',')}${rendered}`]
}

/** How many paths failed: a page showing two bad images has two failures, and is one path. */
const failedPaths = (failures: readonly { path: string }[]): number => new Set(failures.map((f) => f.path)).size

/** The summary people read at the end of `site build`. */
export function formatSummary(result: BuildResult): string {
  const s = toBuildSummary(result)
  const perLocale = Object.entries(s.pages.byLocale)
    .map(([locale, n]) => `${locale} ${n}`)
    .join(', ')
  const lines = [
    `Pages: ${s.pages.total} (${perLocale}) in ${(s.durationMs / 1000).toFixed(2)} s, ${s.pagesPerSecond} pages/s`,
    ...list('Redirects', s.redirects, (r) => `${r.from} -> ${r.to} (${r.statusCode})`, SUMMARY_MAX_ITEMS),
    ...list(
      'Skipped',
      s.skipped,
      (i) => `${i.item}  ${i.kind}  ${i.reason}${i.from ? ` (in ${i.from})` : ''}`,
      SUMMARY_MAX_ITEMS,
    ),
    ...s.notes.map((note) => `Note: ${note}`),
    ...list('Failures', s.failures, (f) => `${f.path}  ${f.status}  ${f.kind}  ${f.reason}`),
    // A failed build's files were thrown away with its temporary folder: nothing was written or changed.
    ...(s.ok
      ? [
          ...changeLines(s.changes),
          ...onlyLines(s.only),
          `Written: ${s.filesWritten} files, ${formatBytes(s.bytesWritten)}; kept ${s.filesKept} files as they were`,
          `Output: ${s.outDir}`,
        ]
      : [`Build failed: ${failedPaths(s.failures)} path(s) failed; ${s.outDir} was left as it was.`]),
  ]
  // Each entry is one line: API text in it may break no line and start no CI command.
  return `${lines.map(toTerminalLine).join('\n')}\n`
}
