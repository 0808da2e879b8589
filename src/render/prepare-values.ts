/**
 * Checks of the shared value shapes of EXT:headless: links, files, navigation entries,
 * language entries, and a generic pass over everything else. Each takes a `where`
 * for problem messages and the run's problem list; none throws.
 */

import { MAX_DATA_DEPTH } from '../shared/constants.js'
import type { DataProblem, DataProblemKind } from '../shared/contract.js'
import { isSafeContentHref } from '../shared/links.js'
import { toAsciiUrl } from '../shared/redirect-target.js'
import type { FileRef, LanguageEntry, LinkResult, NavEntry } from '../shared/types.js'
import { clipped, isLanguageTag, isRecord } from '../shared/values.js'
import { sanitizeRichText } from './sanitize.js'

/** The problem list of one prepare run: `push` files a problem (`INVALID_DATA` unless told), `forElement` files under an element. */
export interface Problems {
  push(message: string, kind?: DataProblemKind): void
  /** The same list, each problem pushed through it filed under content element `uid`. */
  forElement(uid: number): Problems
  readonly items: DataProblem[]
}

export function createProblems(items: DataProblem[] = [], elementUid?: number): Problems {
  return {
    items,
    push(message, kind = 'INVALID_DATA') {
      items.push(elementUid === undefined ? { kind, message } : { kind, message, elementUid })
    },
    forElement: (uid) => createProblems(items, uid),
  }
}

export { clipped, isRecord }

/** What a value is, for a message: its type, never its text (which may be a whole page long). */
export const typeName = (value: unknown): string =>
  Array.isArray(value) ? 'a list' : value === null ? 'null' : typeof value

// What HTML forbids in a document (Nu checker: "Forbidden code point"): C0 controls but tab, LF, FF and CR;
// DEL and C1 controls; noncharacters. CMS text pasted from elsewhere carries them; no text needs them.
const FORBIDDEN_TEXT_RE =
  /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\ufdd0-\ufdef\ufffe\uffff]|[\ud83f\ud87f\ud8bf\ud8ff\ud93f\ud97f\ud9bf\ud9ff\uda3f\uda7f\udabf\udaff\udb3f\udb7f\udbbf\udbff][\udffe\udfff]/

/**
 * `value` without the characters HTML forbids in any string it holds (keys are never shown), at any depth up
 * to past MAX_DATA_DEPTH (deeper is dropped by cleanValue anyway): the value itself when it has none, else a copy.
 * Run on an API answer before it is prepared, so that the page, its payload and its hydration agree.
 */
export function withoutForbiddenText(value: unknown, depth = 0): unknown {
  if (typeof value === 'string')
    return FORBIDDEN_TEXT_RE.test(value) ? value.replace(new RegExp(FORBIDDEN_TEXT_RE.source, 'g'), '') : value
  if (typeof value !== 'object' || value === null || depth > MAX_DATA_DEPTH + 8) return value
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => withoutForbiddenText(item, depth + 1))
    return items.some((item, i) => item !== value[i]) ? items : value
  }
  let copy: Record<string, unknown> | undefined
  const record = value as Record<string, unknown>
  for (const key in record) {
    const item = record[key]
    const cleaned = withoutForbiddenText(item, depth + 1)
    if (cleaned === item) continue
    copy ??= { ...record }
    copy[key] = cleaned
  }
  return copy ?? value
}

/** Keys whose string values are URLs (`href`, `link`, `publicUrl`, `url`, `src`): compared, not looked up, as every key of every page passes here. */
const isUrlKey = (key: string): boolean =>
  key === 'href' || key === 'link' || key === 'publicUrl' || key === 'url' || key === 'src'
/** A key no copy may take over: it would set the copy's prototype. */
const FORBIDDEN_KEY = '__proto__'

/** An absolute http(s) URL, as TYPO3 writes another site's link (and, with its host, one of this site). */
const HTTP_URL_RE = /^\s*https?:\/\//i

/**
 * An absolute http(s) URL as a valid URL in ASCII (`https://bücher.example/"x` -> `https://xn--bcher-kva.example/%22x`),
 * as `href` and `src` must hold one; '' (reported) when no browser can read it (`https://exa mple.com`).
 */
function asciiUrl(value: string, where: string, problems: Problems): string {
  const ascii = toAsciiUrl(value.trim())
  if (ascii !== undefined && URL.canParse(ascii)) return ascii
  problems.push(`${where}: link ${JSON.stringify(value.slice(0, 80))} is not a valid URL, removed`, 'UNSAFE_LINK')
  return ''
}

/**
 * A URL-valued string: kept when safe (an absolute http(s) URL written in ASCII), '' (reported) when not.
 * TYPO3 sometimes sends hrefs HTML-escaped (`?a=1&amp;b=2`); that `&amp;` is decoded, as no URL means it literally.
 */
export function safeUrl(raw: string, where: string, problems: Problems): string {
  const value = raw.includes('&amp;') ? raw.replace(/&amp;/g, '&') : raw
  if (HTTP_URL_RE.test(value)) return asciiUrl(value, where, problems)
  if (value === '' || isSafeContentHref(value)) return value
  problems.push(`${where}: unsafe link ${JSON.stringify(String(value).slice(0, 80))} removed`, 'UNSAFE_LINK')
  return ''
}

/**
 * The generic pass: sanitises every `bodytext` string, blanks unsafe values of URL keys (`href`, `link`,
 * `publicUrl`, `url`, `src`), drops `__proto__` keys, cuts nesting at MAX_DATA_DEPTH. Linear in the size of
 * the value. Plain text stays as it is: React escapes it. Objects and lists come back as copies, keys in
 * their order: the value itself is never changed, and what comes back is the caller's own.
 * `omit`: keys of `value` itself that are left out (those its caller prepares on its own).
 */
export function cleanValue(
  value: unknown,
  where: string,
  problems: Problems,
  depth = 0,
  omit?: ReadonlySet<string>,
): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (depth >= MAX_DATA_DEPTH) {
    problems.push(`${where}: nested deeper than ${MAX_DATA_DEPTH} levels, dropped`)
    return undefined
  }
  if (Array.isArray(value))
    return value.map((item: unknown, i) =>
      typeof item === 'object' && item !== null ? cleanValue(item, `${where}[${i}]`, problems, depth + 1) : item,
    )
  const record = value as Record<string, unknown>
  const copy: Record<string, unknown> = {}
  for (const key in record) {
    if (key === FORBIDDEN_KEY || omit?.has(key)) continue
    const item = record[key]
    let cleaned: unknown = item
    if (typeof item === 'string') {
      if (key === 'bodytext')
        cleaned = sanitizeRichText(item, (what, kind) => problems.push(`${where}.bodytext: ${what}`, kind))
      else if (isUrlKey(key)) cleaned = safeUrl(item, `${where}.${key}`, problems)
    } else if (typeof item === 'object' && item !== null)
      cleaned = cleanValue(item, `${where}.${clipped(key)}`, problems, depth + 1)
    if (cleaned !== undefined) copy[key] = cleaned
  }
  return copy
}

/** cleanValue of a record, as a record ({} when it was nested too deep). */
export const cleanRecord = (
  value: Record<string, unknown>,
  where: string,
  problems: Problems,
  depth = 0,
  omit?: ReadonlySet<string>,
): Record<string, unknown> => (cleanValue(value, where, problems, depth, omit) as Record<string, unknown>) ?? {}

/** A typolink field: `''` when unset or unsafe, else the link with a safe href. */
export function prepareLink(value: unknown, where: string, problems: Problems): LinkResult | '' {
  if (value === '' || value === null || value === undefined) return ''
  if (typeof value === 'string') {
    const href = safeUrl(value, where, problems)
    return href === '' ? '' : { href }
  }
  if (!isRecord(value) || typeof value.href !== 'string') {
    problems.push(`${where}: link is not a typolink result, dropped`)
    return ''
  }
  const link = cleanValue(value, where, problems) as LinkResult
  return link.href === '' ? '' : link
}

/** A file reference with a safe `publicUrl`, or null. */
export function prepareFile(value: unknown, where: string, problems: Problems): FileRef | null {
  if (value === null || value === undefined || value === '') return null
  if (!isRecord(value) || typeof value.publicUrl !== 'string') {
    problems.push(`${where}: not a file, dropped`)
    return null
  }
  const file = cleanValue(value, where, problems) as FileRef
  return file.publicUrl === '' ? null : file
}

/** A list of files; anything that is not a list becomes `[]` (reported). */
export function prepareFiles(value: unknown, where: string, problems: Problems): FileRef[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) {
    problems.push(`${where}: expected a list of files, dropped`)
    return []
  }
  return value
    .map((file, i) => prepareFile(file, `${where}[${i}]`, problems))
    .filter((file): file is FileRef => file !== null)
}

export interface NavOptions {
  /** Drop entries whose title is missing or empty (the context menu's `navigation`) rather than only non-strings. */
  dropEmptyTitles?: boolean
  /** Entries may lack a title (icon buttons): it becomes ''. */
  titleOptional?: boolean
}

/** What prepareNav prepares itself: an entry's children. */
const NAV_OWN_KEYS: ReadonlySet<string> = new Set(['children'])

/**
 * Navigation entries: entries without a string title or link are
 * dropped (reported), unsafe links become `''`, children are checked the same way.
 */
export function prepareNav(
  value: unknown,
  where: string,
  problems: Problems,
  options: NavOptions = {},
  depth = 0,
): NavEntry[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) {
    problems.push(`${where}: expected a list of navigation entries, dropped`)
    return []
  }
  const entries: NavEntry[] = []
  value.forEach((raw, i) => {
    const at = `${where}[${i}]`
    const title = isRecord(raw) ? (raw.title ?? (options.titleOptional ? '' : undefined)) : undefined
    if (!isRecord(raw) || typeof title !== 'string' || typeof raw.link !== 'string') {
      problems.push(`${at}: navigation entry without a title or link, dropped`)
      return
    }
    if (options.dropEmptyTitles && title.trim() === '') return
    const { children } = raw
    const entry = cleanRecord(raw, at, problems, depth + 1, NAV_OWN_KEYS) as unknown as NavEntry
    entry.title = title
    if (typeof entry.target !== 'string') entry.target = ''
    if (entry.buttonLabel !== undefined && typeof entry.buttonLabel !== 'string') delete entry.buttonLabel
    if (children !== undefined && depth < MAX_DATA_DEPTH)
      entry.children = prepareNav(children, `${at}.children`, problems, options, depth + 1)
    entries.push(entry)
  })
  return entries
}

const flag = (value: unknown): 0 | 1 => (value === true || value === 1 || value === '1' ? 1 : 0)

/** Language entries (`i18n`); entries of disabled languages (nulls) are dropped, those whose code is no language tag too (reported). */
export function prepareLanguages(value: unknown, where: string, problems: Problems): LanguageEntry[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) {
    problems.push(`${where}: expected a list of languages, dropped`)
    return []
  }
  return value.flatMap((raw, i): LanguageEntry[] => {
    if (!isRecord(raw) || typeof raw.twoLetterIsoCode !== 'string' || raw.twoLetterIsoCode === '') return []
    // the code stands in `lang` and `hreflang` attributes and in the sitemap: a language tag or nothing
    if (!isLanguageTag(raw.twoLetterIsoCode)) {
      problems.push(
        `${where}[${i}]: language code ${JSON.stringify(raw.twoLetterIsoCode.slice(0, 40))} is not a language tag, dropped`,
      )
      return []
    }
    const entry = cleanValue(raw, `${where}[${i}]`, problems) as LanguageEntry
    const link = typeof entry.link === 'string' ? entry.link : ''
    // Only a number or a string of digits: Number() of an object runs its `toString`/`valueOf`, and a JSON
    // object's own `"toString": "x"` key makes that throw.
    const id =
      typeof raw.languageId === 'number' || (typeof raw.languageId === 'string' && /^\d{1,15}$/.test(raw.languageId))
        ? Number(raw.languageId)
        : Number.NaN
    const title = typeof raw.title === 'string' || typeof raw.title === 'number' ? String(raw.title) : ''
    return [
      {
        ...entry,
        languageId: Number.isInteger(id) ? id : -1,
        navigationTitle:
          typeof raw.navigationTitle === 'string' && raw.navigationTitle !== ''
            ? raw.navigationTitle
            : title !== ''
              ? title
              : raw.twoLetterIsoCode,
        link,
        active: flag(raw.active),
        available: link === '' ? 0 : raw.available === undefined ? 1 : flag(raw.available),
        direction: raw.direction === 'rtl' ? 'rtl' : 'ltr',
      },
    ]
  })
}
