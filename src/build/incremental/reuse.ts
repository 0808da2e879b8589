/**
 * Pure (no I/O; it holds the answers only.ts asked ahead for the crawl): a partial build (`site build --only <uid|path>,…`) as a plan over the
 * previous build's pages. The crawl stays the full build's crawl (same seeds, same links, so
 * the same pages are reached); only how each path is obtained differs:
 *
 * - `fetch`: asked of the API, as in a full build: the pages named by `--only` in every locale
 *   and the pages that show a file it names; the pages whose previous answer linked to a named one
 *   (menus, teasers and context menus show a linked page's title), all of them or, once `narrow`
 *   is told which named pages changed what others show of them (only.ts), those linking to these;
 *   and every path the previous build did not have;
 * - `render`: rendered again from the data it kept (its `_payload.json`), with no API request,
 *   when its locale's initial data or the client code changed;
 * - `keep`: its files stay as they are.
 *
 * A path whose previous answer was a redirect or a 404 is asked again: a stored answer is evidence
 * of what the API said, never an answer (the state is read from disk, and disk is untrusted).
 *
 * So the result is what a full build over the same API state writes, byte for byte.
 */
import { eventFileRefs } from '../../shared/file-refs.js'
import { normalizePagePath, toHtmlFile } from '../../shared/url.js'
import type { ApiAnswer } from '../crawl/fetch-page.js'
import type { PageTable } from '../page-table.js'
import type { PreviousOutput } from './previous.js'

export type PathSource =
  | { type: 'fetch' }
  /** Its row is copied from the previous build's pages as it is (PageTable.copyFrom). */
  | { type: 'keep'; from: PageTable }
  /** Rendered again from its kept payload; `from` holds its row (the files it names). */
  | { type: 'render'; locale: string; from: PageTable }

/**
 * What `--only` names: page uids (as TYPO3's page events send them), normalised paths, and CMS files
 * (`file:/fileadmin/a.jpg`, as TYPO3's file events name them): each as the references it may match
 * (shared/file-refs.ts), with the item as given.
 */
export interface OnlyTargets {
  uids: number[]
  paths: string[]
  files: Array<{ item: string; refs: string[] }>
}

export interface ReusePlan {
  decide(path: string): PathSource
  /** Paths asked of the API again because `--only` names them (in any locale), or they show a file it names. */
  readonly targets: ReadonlySet<string>
  /** Targets that other pages may show (named by uid or path, not by a file): their linking pages may change. */
  readonly linked: ReadonlySet<string>
  /**
   * Paths asked again because their previous answer linked to a target: to any of `linked` until `narrow` is
   * called, then to those whose answer changed what other pages show of them.
   */
  readonly dependents: ReadonlySet<string>
  /**
   * Keeps as dependents only the pages linking to one of `changed`: targets whose link digest changed, and
   * dependents whose own digest changed (they stay dependents, and the pages linking to them become ones).
   */
  narrow(changed: ReadonlySet<string>): void
  /**
   * Names the page `uid` as an `--only` uid does: its paths of the previous build, in every locale, become targets
   * (a path named that the previous build did not have answered with a page it had elsewhere: its slug changed).
   */
  nameUid(uid: number): void
  /** An answer asked of the API before the crawl (see only.ts), handed out once; undefined when there is none. */
  takeAnswer(path: string): ApiAnswer | undefined
  keepAnswer(path: string, answer: ApiAnswer): void
  /** Whether a page it keeps is rendered again (`render`: its locale's initial data or the client code changed). */
  readonly rendersKept: boolean
  /** `--only` uids no page of the previous build has: reported, not fatal. */
  readonly unknownUids: number[]
  /** `--only file:` items no page of the previous build shows: reported, not fatal. */
  readonly unknownFiles: string[]
  /**
   * Targets that show a file `--only` names. Every file they show is fetched again without validators: the
   * file named may be a processed image's original, and only the page's answer tells which file it shows for it.
   */
  readonly showingNamedFiles: ReadonlySet<string>
}

/** The references of the files `--only` names (shared/file-refs.ts): fetched again without asking whether they changed. */
export const namedFileRefs = (only: OnlyTargets): Set<string> => new Set(only.files.flatMap((file) => file.refs))

const UID_RE = /^[1-9][0-9]{0,15}$/

/** The prefix of an `--only` item naming a CMS file: `file:/fileadmin/a.jpg`. */
export const FILE_ITEM_PREFIX = 'file:'

/** Whether `value` is one item `--only` reads. */
export const isOnlyItem = (value: unknown): value is string =>
  typeof value === 'string' && parseOnly([value]).invalid.length === 0

/**
 * Reads `--only` items: a page uid (`12`), a page path (`/pl/o-nas`, normalised, without a query or fragment
 * as the crawl reads a link: `/pl/o-nas?utm_source=x` is `/pl/o-nas`) or a CMS file
 * (`file:/fileadmin/a.jpg`, `file:https://cms.example/fileadmin/a.jpg`). Returns the items it cannot read
 * as `invalid`, so the caller can name them.
 */
export function parseOnly(items: readonly string[]): { targets: OnlyTargets; invalid: string[] } {
  const targets: OnlyTargets = { uids: [], paths: [], files: [] }
  const invalid: string[] = []
  for (const raw of items) {
    const item = raw.trim()
    if (UID_RE.test(item)) targets.uids.push(Number(item))
    else if (item.startsWith(FILE_ITEM_PREFIX)) {
      const refs = eventFileRefs(item.slice(FILE_ITEM_PREFIX.length))
      if (refs) targets.files.push({ item, refs })
      else invalid.push(raw)
    } else {
      // no page's path holds a `?` or `#` (the crawl drops them from links): the rest is the page meant
      const path = normalizePagePath(item.replace(/[?#].*$/s, ''))
      if (path.ok) targets.paths.push(path.path)
      else invalid.push(raw)
    }
  }
  return { targets, invalid }
}

/**
 * The pages `--only` uids and paths name in `pages`, each in every locale (a path also names its page's
 * translations), and the uids no page has. What a build fetches again, and what a publisher asks for ahead of it.
 */
export function namedPages(
  pages: PageTable,
  only: Pick<OnlyTargets, 'uids' | 'paths'>,
): { paths: string[]; unknownUids: number[] } {
  const uids = new Set(only.uids)
  for (const path of only.paths) {
    const uid = pages.uidOf(path)
    if (uid !== undefined) uids.add(uid)
  }
  const paths = new Set(only.paths)
  const known = new Set<number>()
  for (const path of pages.pathsOfUids(uids)) {
    paths.add(path)
    known.add(pages.uidOf(path) as number)
  }
  return { paths: [...paths], unknownUids: only.uids.filter((uid) => !known.has(uid)) }
}

export function createReusePlan(input: {
  previous: PreviousOutput
  only: OnlyTargets
  /** Locales whose initial data changed since the previous build: their pages are rendered again. */
  changedLocales: ReadonlySet<string>
  /** The client code changed (a template, the styles): every page is rendered again. */
  clientChanged: boolean
  /** Files the initial data names (a footer's picture): shown by every page of its locale, so never unknown. */
  initialDataFiles?: ReadonlySet<string>
  /** build.maxPageBytes: a kept page over it (the limit lowered since) is rendered again, to fail as in a full build. */
  maxPageBytes?: number
}): ReusePlan {
  const { previous, only, changedLocales, clientChanged, maxPageBytes } = input
  const { pages } = previous
  // the sizes of a scanned output (a builder's own last output holds hashes: built under this very limit)
  const isOverLimit = (path: string): boolean => {
    const size = previous.disk.files.get(toHtmlFile(path))
    return maxPageBytes !== undefined && typeof size === 'number' && size > maxPageBytes
  }
  const named = namedPages(pages, only)
  const targets = new Set(named.paths)
  const { unknownUids } = named
  const linked = new Set(targets)
  const linkingTo = (to: ReadonlySet<string>): Set<string> => {
    const ids = new Set([...to].map((path) => pages.pool.id(path)))
    const found = new Set<string>()
    if (ids.size) for (const path of pages.pathsLinkingTo(ids)) if (!to.has(path)) found.add(path)
    return found
  }
  // made when first asked for: narrow() usually comes first, and then this walk of every page is not needed
  let narrowed: Set<string> | undefined
  const dependents = (): Set<string> => {
    narrowed ??= linkingTo(linked)
    return narrowed
  }
  // the pages that show a file named are asked again (a file is no title a menu shows: nothing links to it)
  const fileIds = new Set([...namedFileRefs(only)].flatMap((ref) => pages.pool.find(ref) ?? []))
  const shown = new Set<string>(input.initialDataFiles)
  const showingNamedFiles = new Set<string>()
  if (fileIds.size)
    for (const path of pages.paths())
      if (pages.namesAnyFile(path, fileIds)) {
        targets.add(path)
        showingNamedFiles.add(path)
        for (const ref of pages.fileRefsOf(path)) shown.add(ref)
      }
  const unknownFiles = only.files.filter((file) => !file.refs.some((ref) => shown.has(ref))).map((file) => file.item)
  const isDependent = (path: string) => dependents().has(path) && !targets.has(path)
  const answers = new Map<string, ApiAnswer>()
  return {
    takeAnswer(path) {
      const answer = answers.get(path)
      answers.delete(path)
      return answer
    },
    keepAnswer(path, answer) {
      answers.set(path, answer)
    },
    targets,
    linked,
    nameUid(uid) {
      for (const path of pages.pathsOfUids(new Set([uid]))) {
        targets.add(path)
        linked.add(path)
      }
    },
    get dependents() {
      return new Set([...dependents()].filter(isDependent))
    },
    narrow(changed) {
      // a named page, or a linking page asked again whose own answer changed what others show of it (only.ts)
      const from = new Set([...changed].filter((path) => linked.has(path) || isDependent(path)))
      narrowed = linkingTo(from)
      for (const path of from) if (!targets.has(path)) narrowed.add(path)
    },
    unknownUids,
    unknownFiles,
    showingNamedFiles,
    rendersKept: clientChanged || changedLocales.size > 0,
    decide(path) {
      if (targets.has(path) || dependents().has(path)) return { type: 'fetch' }
      const locale = pages.localeOf(path)
      if (locale === undefined) return { type: 'fetch' }
      return clientChanged || changedLocales.has(locale) || isOverLimit(path)
        ? { type: 'render', locale, from: pages }
        : { type: 'keep', from: pages }
    },
  }
}
