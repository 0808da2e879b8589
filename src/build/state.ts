/**
 * What one build run gathers while it goes: small facts per page, failures,
 * skipped items, redirects and timings. One object per run (no module state);
 * page data never lands here.
 */
import { createMissingTemplates, type MissingTemplates } from '../render/missing-templates.js'
import type { TemplateFallback } from '../shared/contract.js'
import { PageTable, type StringPool } from './page-table.js'
import type { BuildFailure, BuildRedirect, BuildTimings, PageRecord, SkippedItem } from './types.js'

/** A path whose API answer was 404: a failure or a skipped item depending on where it was linked from. */
export interface NotFoundPath {
  path: string
  status: number
}

export interface BuildState {
  /** Every page built or kept, packed (page-table.ts). */
  readonly pages: PageTable
  readonly failures: BuildFailure[]
  readonly skipped: SkippedItem[]
  readonly redirects: BuildRedirect[]
  readonly notFound: NotFoundPath[]
  readonly notes: string[]
  /** Pages whose answer said when to ask again (see api/freshness.ts): path -> ms since the epoch. */
  readonly recheck: Map<string, number>
  /** Layouts and content element types rendered with `Default`, with counts and first page. */
  readonly missingTemplates: MissingTemplates
  readonly timings: BuildTimings
  /** Pages written per locale. */
  readonly pagesByLocale: Record<string, number>
  addPage(page: PageRecord): void
  /** Adds the page at `path` of a previous build's table as it is; false when that table has none. */
  keepPage(from: PageTable, path: string): boolean
  /** Adds every page of a previous build's table as it is, in its order; a page `instead` has is taken from there. */
  keepPages(from: PageTable, instead?: PageTable): void
  fail(failure: BuildFailure): void
  skip(item: SkippedItem): void
  /** A page rendered these layouts or content element types with `Default`. */
  fellBack(path: string, fallbacks: readonly TemplateFallback[]): void
  /** Adds `ms` to one of the timings. */
  time(kind: keyof BuildTimings, ms: number): void
}

/** Longest item text kept in the report (hostile paths can be megabytes long). */
const MAX_ITEM_LENGTH = 200

const clip = (text: string): string => (text.length > MAX_ITEM_LENGTH ? `${text.slice(0, MAX_ITEM_LENGTH)}…` : text)

/** `pool`: the build's one string per path, shared with the previous output's pages (see BuildRun.pool). */
export function createBuildState(locales: readonly string[], pool?: StringPool): BuildState {
  const pagesByLocale = Object.fromEntries(locales.map((l) => [l, 0]))
  const countPage = (locale: string) => {
    pagesByLocale[locale] = (pagesByLocale[locale] ?? 0) + 1
  }
  const timings: BuildTimings = { apiWaitMs: 0, renderMs: 0, writeMs: 0 }
  // the same refused link in a menu on every page is listed once, with the first page that had it
  const skippedKeys = new Set<string>()
  const state: BuildState = {
    pages: new PageTable(pool),
    failures: [],
    skipped: [],
    redirects: [],
    notFound: [],
    notes: [],
    recheck: new Map(),
    missingTemplates: createMissingTemplates(),
    timings,
    pagesByLocale,
    addPage(page) {
      state.pages.add(page)
      countPage(page.locale)
    },
    keepPage(from, path) {
      const locale = from.localeOf(path)
      if (locale === undefined || !state.pages.copyFrom(from, path)) return false
      countPage(locale)
      return true
    },
    keepPages(from, instead) {
      for (const [locale, count] of state.pages.copyAllFrom(from, instead))
        pagesByLocale[locale] = (pagesByLocale[locale] ?? 0) + count
    },
    fail(failure) {
      state.failures.push({ ...failure, path: clip(failure.path) })
    },
    skip(item) {
      const clipped = { ...item, item: clip(item.item) }
      const key = `${clipped.item}\u0000${clipped.kind}\u0000${clipped.reason}`
      if (skippedKeys.has(key)) return
      skippedKeys.add(key)
      state.skipped.push(clipped)
    },
    fellBack(path, fallbacks) {
      state.missingTemplates.add(path, fallbacks)
    },
    time(kind, ms) {
      timings[kind] += ms
    },
  }
  return state
}

/**
 * A state whose gatherings reach `into` only when committed: pages built aside (keep-whole.ts) that the
 * build may still throw away. Its pages, a table over `into`'s pool, are the caller's to take (keepPages);
 * the rest goes into `into` when committed.
 */
export function createStagedState(into: BuildState): { state: BuildState; commit(): void } {
  const own = createBuildState(Object.keys(into.pagesByLocale), into.pages.pool)
  // what the pages rendered with `Default`, for `into`'s own record of it
  const fellBack: Array<[string, readonly TemplateFallback[]]> = []
  const state: BuildState = {
    ...own,
    fellBack(path, fallbacks) {
      fellBack.push([path, fallbacks])
      own.fellBack(path, fallbacks)
    },
  }
  return {
    state,
    commit() {
      into.failures.push(...state.failures)
      for (const item of state.skipped) into.skip(item)
      into.redirects.push(...state.redirects)
      into.notFound.push(...state.notFound)
      into.notes.push(...state.notes)
      for (const [path, at] of state.recheck) into.recheck.set(path, at)
      for (const [path, fallbacks] of fellBack) into.fellBack(path, fallbacks)
      for (const [kind, ms] of Object.entries(state.timings)) into.time(kind as keyof BuildTimings, ms)
    },
  }
}
