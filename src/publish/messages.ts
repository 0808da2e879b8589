/**
 * Pure: what a webhook asks for, from its parsed JSON body (untrusted: every field is checked).
 * - TYPO3 Page Modification (`{ action, identifier, record, url, site, workspace }`): the page, by the uid
 *   it has in every locale (`record.l10n_parent` of a translation, else `identifier`; the record is a database
 *   row, whose numbers TYPO3 may send as strings of digits); with `action: "new"`
 *   its parent (`record.pid`) too, so that menus list it. `workspace` other than 0 is a draft: nothing to publish.
 *   A change of `nav_hide` (listed in `changedFields`) is a full build: menus of any page may show the page or
 *   stop showing it, and nothing in its own answer tells which (see api/link-digest.ts).
 * - TYPO3 file messages (`{ storage, identifier, url }`, added, updated or removed): the pages that show the
 *   file, as the build state records them (`file:<url>`, see `--only`), with the file fetched again.
 * - `/hooks/pages` (`{ pages: [uid or path, ...] }`): those pages.
 */

import { FILE_ITEM_PREFIX, isOnlyItem } from '../build/incremental/reuse.js'
import { PUBLISH_MAX_LISTED_PAGES, PUBLISH_MAX_PAGES_PER_EVENT } from '../shared/constants.js'
import { eventFileRefs } from '../shared/file-refs.js'
import { isRecord } from '../shared/values.js'

export type PublishRequest =
  | { kind: 'pages'; pages: string[]; what: string }
  | { kind: 'full'; what: string }
  | { kind: 'draft'; what: string }

/**
 * A page uid as `--only` reads it, from a number or digits; undefined otherwise. What a webhook names is
 * checked by the build's own reader: an item accepted here and refused by every build would hold back
 * each later edit in its batch.
 */
function uidItem(value: unknown): string | undefined {
  const item = typeof value === 'number' ? String(value) : value
  return typeof item === 'string' && /^\d+$/.test(item) && isOnlyItem(item) ? item : undefined
}

/** One item of `/hooks/pages`: a uid (number or digits) or a page path, as `--only` reads them; undefined when it is neither. */
function pageItem(value: unknown): string | undefined {
  if (typeof value === 'number') return uidItem(value)
  if (typeof value !== 'string') return undefined
  return uidItem(value) ?? (value.startsWith('/') && isOnlyItem(value) ? value : undefined)
}

/** The body of `/hooks/pages`, or why it is malformed. */
export function parsePagesBody(body: unknown): PublishRequest | { error: string } {
  if (!isRecord(body) || !Array.isArray(body.pages)) return { error: 'expected {"pages": [<uid or path>, ...]}' }
  if (body.pages.length === 0) return { error: '"pages" is empty' }
  if (body.pages.length > PUBLISH_MAX_PAGES_PER_EVENT)
    return { error: `"pages" names more than ${PUBLISH_MAX_PAGES_PER_EVENT} pages: use /hooks/full` }
  const pages = body.pages.map(pageItem)
  const bad = pages.indexOf(undefined)
  if (bad >= 0) return { error: `pages[${bad}] is neither a page uid nor a page path` }
  const more = pages.length > PUBLISH_MAX_LISTED_PAGES ? ` and ${pages.length - PUBLISH_MAX_LISTED_PAGES} more` : ''
  const listed = pages.slice(0, PUBLISH_MAX_LISTED_PAGES).join(', ')
  return { kind: 'pages', pages: [...new Set(pages as string[])], what: `pages ${listed}${more}` }
}

/**
 * The field names of `changedFields`. TYPO3 sends the DataHandler's field array, `{"title": "…", "nav_hide": 1}`
 * (a JSON list only when it is empty); a list of names is read as well.
 */
function changedFieldNames(changed: unknown): string[] {
  if (Array.isArray(changed)) return changed.filter((name): name is string => typeof name === 'string')
  return isRecord(changed) ? Object.keys(changed) : []
}

/** An action as the log shows it: TYPO3's (`new`, `modified`) as it is, anything else quoted and cut (one line, short). */
const shownAction = (action: string): string =>
  /^[a-z][a-z_-]{0,31}$/i.test(action) ? action : JSON.stringify(action.slice(0, 40))

function pageModification(body: Record<string, unknown>): PublishRequest | { error: string } {
  const { action, record, workspace } = body
  const identifier = typeof body.identifier === 'number' ? uidItem(body.identifier) : undefined
  if (typeof action !== 'string' || !identifier || !isRecord(record))
    return { error: 'a page modification needs "action", a page uid as "identifier" and a "record" object' }
  const what = `page ${identifier} ${shownAction(action)}`
  if (workspace !== undefined && workspace !== 0 && workspace !== '0')
    return { kind: 'draft', what: `${what} (workspace draft)` }
  const uid = uidItem(record.l10n_parent) ?? identifier
  // shown in other pages' menus, but in no field of the page's own answer (its link digest cannot see it)
  if (changedFieldNames(body.changedFields).includes('nav_hide'))
    return { kind: 'full', what: `${what} (nav_hide changed: any page's menus may change)` }
  const pages = [uid]
  const parent = uidItem(record.pid)
  if (action === 'new' && parent) pages.push(parent)
  return { kind: 'pages', pages, what: uid === identifier ? what : `${what} (translation of ${uid})` }
}

/** A TYPO3 core webhook's body, or why it is not one this publisher knows. */
export function parseTypo3Body(body: unknown): PublishRequest | { error: string } {
  if (!isRecord(body)) return { error: 'expected a JSON object' }
  if ('action' in body || 'record' in body) return pageModification(body)
  if (Number.isInteger(body.storage) && typeof body.identifier === 'string' && typeof body.url === 'string') {
    if (!eventFileRefs(body.url)) return { error: 'the file message\'s "url" is not the URL or path of a file' }
    const item = `${FILE_ITEM_PREFIX}${body.url.trim()}`
    return { kind: 'pages', pages: [item], what: `file ${body.url.trim()}` }
  }
  return { error: 'neither a page modification nor a file message' }
}
