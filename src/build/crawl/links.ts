/**
 * Pure link extraction for discovery. Walks prepared API data and collects
 * every link-like value: `link` (navigation and menu entries), `href`
 * (LinkResults: headerLink, canonical, additionalLink) and the `href`s inside
 * `bodytext` HTML. Language entries with `available: 0` name no page and are skipped.
 */
import { MAX_DATA_DEPTH } from '../../shared/constants.js'
import type { InitialData, PageData } from '../../shared/types.js'

/** Link hrefs of a page, split by where they were found. */
export interface PageLinks {
  /** Navigation-like places: breadcrumbs, `i18n`, `contextMenu`, … (a 404 there is a broken link). */
  nav: string[]
  /** Inside `content` (bodytext, headerLink, menus), per content element of a column (nested shortcuts count as theirs). */
  content: Array<{ elementUid: number; hrefs: string[] }>
}

// An opening tag (quoted attribute values may hold `>`), then the href attribute inside it.
// Escaped markup in text (`&lt;a href="/x"&gt;` in a code sample) is no tag, so it is not a link.
const TAG_RE = /<[a-z][a-z0-9-]*\s(?:[^>"']|"[^"]*"|'[^']*')*>/gi
const HREF_ATTR_RE = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i
const ENTITY_RE = /&(?:amp|quot|apos|lt|gt|#(\d+)|#x([0-9a-f]+));/gi
const NAMED_ENTITIES: Record<string, string> = { '&amp;': '&', '&quot;': '"', '&apos;': "'", '&lt;': '<', '&gt;': '>' }

const decodeEntities = (text: string): string =>
  text.replace(ENTITY_RE, (match, dec?: string, hex?: string) => {
    if (dec ?? hex) {
      const code = dec ? Number(dec) : parseInt(hex!, 16)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : ''
    }
    return NAMED_ENTITIES[match.toLowerCase()] ?? match
  })

/** `href` attributes of the tags of an HTML fragment, entities decoded. Example: `<a href="/a?x=1&amp;y=2">` -> ['/a?x=1&y=2']. */
export function extractHtmlHrefs(html: string): string[] {
  const found: string[] = []
  pushHtmlHrefs(html, found)
  return found
}

const HAS_HREF_RE = /href/i

function pushHtmlHrefs(html: string, out: string[]): void {
  // most rich text links nowhere: one scan tells, with no match objects made for each of its tags
  if (!HAS_HREF_RE.test(html)) return
  for (const [tag] of html.matchAll(TAG_RE)) {
    const match = HREF_ATTR_RE.exec(tag)
    if (!match) continue
    const value = match[1] ?? match[2] ?? match[3] ?? ''
    out.push(value.includes('&') ? decodeEntities(value) : value)
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

/** A language entry that names no page (`available: 0`). */
const isUnavailableLanguage = (value: Record<string, unknown>): boolean =>
  'available' in value && 'twoLetterIsoCode' in value && !value.available

/**
 * Pushes every link-like string inside `value` onto `out`. Runs over every value of every page (twice the
 * page's size in objects): keys are read in place (`for…in` over JSON objects: own keys, in their order),
 * with no entry arrays made.
 */
function walk(value: unknown, out: string[], depth: number): void {
  if (depth > MAX_DATA_DEPTH) return
  if (Array.isArray(value)) {
    for (const item of value) if (isRecord(item)) walk(item, out, depth + 1)
    return
  }
  if (isRecord(value) && !isUnavailableLanguage(value)) walkKeys(value, out, depth)
}

/** walk's step over a record's keys, but `skip`. */
function walkKeys(value: Record<string, unknown>, out: string[], depth: number, skip?: string): void {
  for (const key in value) {
    if (key === skip) continue
    const item = value[key]
    if (typeof item === 'string') {
      if (key === 'link' || key === 'href') out.push(item)
      else if (key === 'bodytext') pushHtmlHrefs(item, out)
    } else if (key === 'bodytext' && Array.isArray(item)) {
      // bullets and tables carry bodytext as lists of (lists of) HTML strings
      for (const cell of item.flat(2)) if (typeof cell === 'string') pushHtmlHrefs(cell, out)
    } else if (isRecord(item)) {
      walk(item, out, depth + 1)
    }
  }
}

/** Every link-like string anywhere inside `value`. */
export function extractLinks(value: unknown): string[] {
  const out: string[] = []
  walk(value, out, 0)
  return out
}

/**
 * Links of a page: `content` (per element of each column of prepared data) apart from the rest (navigation-like
 * places). Walks the page in place: no copy of it without its content, no list of its elements.
 */
export function extractPageLinks(page: PageData): PageLinks {
  const nav: string[] = []
  if (!isUnavailableLanguage(page as unknown as Record<string, unknown>))
    walkKeys(page as unknown as Record<string, unknown>, nav, 0, 'content')
  const content: PageLinks['content'] = []
  const columns: unknown = page.content
  if (isRecord(columns))
    for (const key in columns) {
      const column = columns[key]
      if (!Array.isArray(column)) continue
      for (const element of column) {
        if (!isRecord(element)) continue
        const hrefs: string[] = []
        walk(element, hrefs, 0)
        content.push({ elementUid: Number(element.id), hrefs })
      }
    }
  return { nav, content }
}

/** Links of a locale's initial data: every navigation tree, language links, footer contact data. */
export const extractInitialDataLinks = (initialData: InitialData): string[] => extractLinks(initialData)
