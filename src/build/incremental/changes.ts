/**
 * Pure: what a build changed in the output, page by page, for the report:
 * pages added, changed (a file of theirs was written) and removed since the previous build,
 * and how many stayed as they were.
 */
import { toHtmlFile, toPayloadFile } from '../../shared/url.js'
import { compareStrings } from '../../shared/values.js'
import type { PageChanges } from '../types.js'

/** The pages of a build: its page table (a set will do). */
export interface PagePaths {
  readonly size: number
  has(path: string): boolean
  paths(): Iterable<string>
}

/**
 * Example: previous ['/a', '/b'], now ['/b', '/c'], '/b/index.html' written ->
 * { added: ['/c'], changed: ['/b'], removed: ['/a'], unchanged: 0 }.
 * Without a previous build every page counts as added. Pages are looked up where they are, not copied, and
 * after an `--only` build that kept every other page whole (`rebuilt`), only the pages it built are looked at.
 */
export function summarizePageChanges(input: {
  previous: PagePaths | undefined
  pages: PagePaths
  written: Iterable<string>
  /** Pages that moved (slug changes): reported as such, not as removed and added. */
  moved?: ReadonlyArray<{ from: string; to: string }>
  /**
   * The pages built again by a build that kept every other page of `previous` whole (keep-whole.ts): its pages
   * are the previous ones, and only these can have changed.
   */
  rebuilt?: ReadonlySet<string>
}): PageChanges {
  const { previous, pages, rebuilt } = input
  const written = new Set(input.written)
  const wrote = (path: string) => written.has(toHtmlFile(path)) || written.has(toPayloadFile(path))
  if (rebuilt && previous?.size === pages.size && !input.moved?.length) {
    const changed = [...rebuilt].filter(wrote).sort(compareStrings)
    return { added: [], changed, removed: [], unchanged: pages.size - changed.length }
  }
  const movedFrom = new Set(input.moved?.map((move) => move.from))
  const movedTo = new Set(input.moved?.map((move) => move.to))
  const before = (path: string) => previous?.has(path) === true && !movedFrom.has(path)
  const changes: PageChanges = { added: [], changed: [], removed: [], unchanged: 0 }
  for (const path of pages.paths()) {
    if (movedTo.has(path)) continue
    if (!before(path)) changes.added.push(path)
    else if (written.size > 0 && wrote(path)) changes.changed.push(path)
    else changes.unchanged += 1
  }
  if (previous)
    for (const path of previous.paths())
      if (!movedFrom.has(path) && !(pages.has(path) && !movedTo.has(path))) changes.removed.push(path)
  for (const list of [changes.added, changes.changed, changes.removed]) list.sort(compareStrings)
  return changes
}
