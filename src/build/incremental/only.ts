/**
 * `site build --only <uid|path>,…`: reads the option, and decides whether the
 * previous output can serve a partial build (the plan: reuse.ts) or the build must fetch every
 * page, saying why in one line.
 */
import { readPageAnswer } from '../../api/answer.js'
import { linkDigest } from '../../api/link-digest.js'
import { errors } from '../../errors.js'
import { findFileRefs, findFileUrlsIn, jsonBytesOf } from '../../media/scan.js'
import { ONLY_PREFETCH_MAX_PAGES } from '../../shared/constants.js'
import { normalizePagePath } from '../../shared/url.js'
import type { ApiAnswer } from '../crawl/fetch-page.js'
import { askApi } from '../crawl/pages.js'
import type { PageTable } from '../page-table.js'
import type { BuildRun } from '../run.js'
import type { LocaleData, OnlyReport } from '../types.js'
import { otherBuilder, type PreviousLookup } from './previous.js'
import { createReusePlan, type OnlyTargets, parseOnly, type ReusePlan } from './reuse.js'

/**
 * Reads `--only` items; a bad one stops the build before it starts (USAGE, exit code 2), named. None (a publisher's
 * check at start) names no page: the build plans as for any `--only`, and builds what changed besides the pages.
 */
export function readOnlyOption(items: readonly string[] | undefined): OnlyTargets | undefined {
  if (items === undefined) return undefined
  const { targets, invalid } = parseOnly(items)
  if (invalid.length)
    throw errors.usage(
      `--only takes page uids (12), page paths (/pl/o-nas) and CMS files (file:/fileadmin/a.jpg); not: ${invalid.map((i) => JSON.stringify(i)).join(', ')}`,
    )
  return targets
}

/**
 * Asks the API for the pages `--only` names before the crawl, and keeps as dependents only the pages linking
 * to one whose answer changed what other pages show of it (its link digest, api/link-digest.ts): an edit of a
 * page's content elements rebuilds that page alone. A target that is no page now (a redirect, a 404, an error)
 * or had no digest counts as changed. The dependents are then asked before the crawl too, and one whose own
 * digest changed (an edit the CMS has saved, and whose event has not come yet or comes during this build) adds
 * the pages linking to it in turn: otherwise this build would record its new digest, and the event naming it
 * would find nothing changed and leave its linking pages as they were. The answers are handed to the crawl (no
 * second request). A named page whose answer was asked ahead (crawl/prefetch.ts) before the answer of a changed
 * page it links to is asked again: the event of that page may have come after. Beyond ONLY_PREFETCH_MAX_PAGES
 * targets the answers are not held, every page linking to a target is asked again, and the named paths no page had
 * are reported as not asked (whether the API has them is not known); beyond that many answers
 * in all, the last dependents are asked by the crawl unchecked.
 */
async function narrowDependents(
  run: BuildRun,
  plan: ReusePlan,
  pages: PageTable,
): Promise<{ unknownPaths: string[]; unasked: string[] }> {
  // a named path no page had nor has (a typo): said, as a uid no page has is, not left to a silent no-op
  const unknownPaths: string[] = []
  // past the cap, a named path no page had is not asked: whether the API has it is not known, and said so
  if (plan.linked.size > ONLY_PREFETCH_MAX_PAGES)
    return { unknownPaths, unasked: [...plan.linked].filter((path) => !pages.has(path)).sort() }
  if (plan.linked.size === 0) return { unknownPaths, unasked: [] }
  const changed = new Set<string>()
  // the ask each answer was asked in: one asked ahead (crawl/prefetch.ts) for an earlier event than the answer of
  // a page it links to may not show that page's edit yet; one this build asks shows every edit whose event it builds
  const askedIn = new Map<string, number>()
  let asks = 0
  let next = [...plan.linked]
  while (next.length > 0 && asks + next.length <= ONLY_PREFETCH_MAX_PAGES) {
    asks += next.length
    await Promise.all(
      next.map(async (path) => {
        const ahead = run.prefetched?.has(path) ? run.prefetchedAsk?.get(path) : undefined
        askedIn.set(path, ahead ?? Number.POSITIVE_INFINITY)
        const answer = await askApi(run, path)
        plan.keepAnswer(path, answer)
        const page = pageOf(answer)
        const digest = page && linkDigest(page)
        if (digest === undefined || digest !== pages.linkDigestOf(path)) changed.add(path)
        else changed.delete(path)
        // a named path the previous build did not have, where a page it had elsewhere answers (its slug changed):
        // its old paths are named too, as its uid names them, so they become redirects and their linking pages change
        if (page && pages.uidOf(path) === undefined && typeof page.id === 'number') plan.nameUid(page.id)
        // a named path the previous build did not have: its parent (the page before it in its breadcrumbs) is named
        // too, as the page listing it, so that the crawl reaches it over its new link as a full build does
        const parent = page && pages.uidOf(path) === undefined ? parentUidOf(page, path, pages) : undefined
        if (parent !== undefined) plan.nameUid(parent)
        if (answer.type === 'not-found' && !pages.has(path)) unknownPaths.push(path)
      }),
    )
    run.checkInterrupted()
    plan.narrow(changed)
    next = [...plan.linked, ...plan.dependents].filter((path) => !askedIn.has(path))
    next.push(...askedBeforeWhatTheyShow(pages, changed, askedIn))
  }
  return { unknownPaths: unknownPaths.sort(), unasked: [] }
}

/** Paths asked ahead before the answer of a changed page they link to: asked again (they may show it as it was). */
function askedBeforeWhatTheyShow(
  pages: PageTable,
  changed: ReadonlySet<string>,
  askedIn: Map<string, number>,
): string[] {
  const stale = new Set<string>()
  for (const to of changed) {
    const id = pages.pool.find(to)
    if (id === undefined) continue
    const changedIn = askedIn.get(to) ?? Number.POSITIVE_INFINITY
    for (const path of pages.pathsLinkingTo(new Set([id])))
      if (path !== to && (askedIn.get(path) ?? changedIn) < changedIn) stale.add(path)
  }
  // asked again now, by this build: as new as any answer
  for (const path of stale) askedIn.set(path, Number.POSITIVE_INFINITY)
  return [...stale]
}

/** The uid the previous build has for the page before `path` in a page's breadcrumbs (its parent), if any. */
function parentUidOf(page: Record<string, unknown>, path: string, pages: PageTable): number | undefined {
  // links as the CMS wrote them (`/news/wydanie-ż`), paths as the build keeps them (`/news/wydanie-%C5%BC`)
  const links = Array.isArray(page.breadcrumbs)
    ? page.breadcrumbs.map((entry: unknown) => {
        const checked = normalizePagePath((entry as { link?: unknown } | null)?.link)
        return checked.ok ? checked.path : undefined
      })
    : []
  const at = links.lastIndexOf(path)
  const link = at > 0 ? links[at - 1] : undefined
  return typeof link === 'string' ? pages.uidOf(link) : undefined
}

/** The page of an answer; undefined for anything else (a redirect record, an error, a bad body). */
function pageOf(answer: ApiAnswer): (Record<string, unknown> & { id?: unknown }) | undefined {
  if (answer.type !== 'answer') return undefined
  try {
    const read = readPageAnswer(answer.answer)
    return read.type === 'page' ? (read.data as unknown as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** The files each locale's raw initial data names (a footer's picture): every page of its locale shows them. */
function initialDataFileRefs(initialData: ReadonlyMap<string, unknown>, apiOrigin: string): Set<string> {
  const refs = new Set<string>()
  for (const raw of initialData.values()) {
    const body = jsonBytesOf(raw)
    for (const ref of findFileRefs(body, findFileUrlsIn(raw), apiOrigin)) refs.add(ref)
  }
  return refs
}

/**
 * The plan of a partial build over the previous output, or undefined (with the report's `fallback`,
 * logged in one line) when the previous output cannot serve one: none, another engine, another config.
 */
export async function planOnly(
  run: BuildRun,
  input: {
    only: OnlyTargets
    requested: readonly string[]
    lookup: PreviousLookup
    engine: string
    clientVersion: string
    locales: ReadonlyMap<string, LocaleData>
    /** Each locale's raw initial data: a file it names is shown, by every page of its locale. */
    initialData: ReadonlyMap<string, unknown>
  },
): Promise<{ plan?: ReusePlan; report: OnlyReport }> {
  const { lookup, requested } = input
  const report: OnlyReport = {
    requested: [...requested],
    unknownUids: [],
    unknownFiles: [],
    unknownPaths: [],
    refetched: [],
    rerenderedLocales: [],
  }
  const fallback = lookup.type === 'none' ? lookup.reason : otherBuilder(lookup.previous, input.engine, run.site)
  if (fallback !== undefined || lookup.type === 'none') {
    report.fallback = fallback
    run.logger.info(`--only: building every page, as ${fallback}`)
    return { report }
  }
  const { previous } = lookup
  const clientChanged = previous.store.clientVersion !== input.clientVersion
  const changedLocales = new Set(
    [...input.locales]
      .filter(([locale, data]) => previous.store.locales[locale]?.initialDataUrl !== data.initialDataUrl)
      .map(([l]) => l),
  )
  // a file of the initial data is shown (fetched again, and its locale's pages rendered again when it changed)
  const initialDataFiles = input.only.files.length
    ? initialDataFileRefs(input.initialData, new URL(run.site.api.baseUrl).origin)
    : undefined
  const { maxPageBytes } = run.site.build
  const plan = createReusePlan({
    previous,
    only: input.only,
    changedLocales,
    clientChanged,
    initialDataFiles,
    maxPageBytes,
  })
  const { unknownPaths, unasked } = await narrowDependents(run, plan, previous.pages)
  report.unknownPaths = unknownPaths
  report.unknownUids = plan.unknownUids
  report.unknownFiles = plan.unknownFiles
  report.refetched = [...plan.targets, ...plan.dependents].sort()
  report.rerenderedLocales = clientChanged ? [...input.locales.keys()] : [...changedLocales]
  for (const uid of plan.unknownUids)
    run.state.notes.push(`--only ${uid}: no page of the previous build has this uid (nothing to rebuild for it)`)
  for (const item of plan.unknownFiles)
    run.state.notes.push(`--only ${item}: no page of the previous build shows this file (nothing to rebuild for it)`)
  for (const path of report.unknownPaths)
    run.state.notes.push(
      `--only ${path}: no page of the previous build has this path, nor has the API (nothing to rebuild for it)`,
    )
  for (const path of unasked)
    run.state.notes.push(
      `--only ${path}: no page of the previous build has this path; not asked of the API, as more than ${ONLY_PREFETCH_MAX_PAGES} pages are named`,
    )
  return { plan, report }
}
