/**
 * Pure: what a build changed in the output, page by page, for the report (issue 12, item 5):
 * pages added, changed (a file of theirs was written) and removed since the previous build,
 * and how many stayed as they were.
 */
import { toHtmlFile, toPayloadFile } from '../../shared/url.js'
import { compareStrings } from '../../shared/values.js'
import type { PageChanges } from '../types.js'

/**
 * Example: previous ['/a', '/b'], now ['/b', '/c'], '/b/index.html' written ->
 * { added: ['/c'], changed: ['/b'], removed: ['/a'], unchanged: 0 }.
 * Without a previous build every page counts as added.
 */
export function summarizePageChanges(input: {
  previous: Iterable<string> | undefined
  pages: Iterable<string>
  written: Iterable<string>
  /** Pages that moved (slug changes): reported as such, not as removed and added. */
  moved?: ReadonlyArray<{ from: string; to: string }>
}): PageChanges {
  const before = new Set(input.previous ?? [])
  const written = new Set(input.written)
  const now = new Set(input.pages)
  for (const { from, to } of input.moved ?? []) {
    before.delete(from)
    now.delete(to)
  }
  const changes: PageChanges = { added: [], changed: [], removed: [], unchanged: 0 }
  for (const path of now) {
    if (!before.has(path)) changes.added.push(path)
    else if (written.has(toHtmlFile(path)) || written.has(toPayloadFile(path))) changes.changed.push(path)
    else changes.unchanged += 1
  }
  for (const path of before) if (!now.has(path)) changes.removed.push(path)
  for (const list of [changes.added, changes.changed, changes.removed]) list.sort(compareStrings)
  return changes
}
