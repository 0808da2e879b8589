/** Pure checks of values from JSON (API answers, config files, payloads), shared by server and browser. */

/** A JSON object: not null, not a list. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** `map[key]` when `map` has it as its own: a key from data named `constructor` or `toString` finds no member of Object. */
export const ownValue = <T>(map: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(map, key) ? map[key] : undefined

/**
 * JSON `value` without what is nested `maxDepth` levels deep or deeper, for JSON.stringify: a parsed answer may nest
 * some thousand levels deep, which JSON.stringify serialises on Node.js 26 and overflows the stack on earlier releases.
 */
export function withinDepth(value: unknown, maxDepth: number, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (depth >= maxDepth) return undefined
  if (Array.isArray(value)) return value.map((item: unknown) => withinDepth(item, maxDepth, depth + 1))
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withinDepth(item, maxDepth, depth + 1)]))
}

/** Orders strings by UTF-16 code units, as `sort()` does, whatever the locale: output that is the same everywhere. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

// A language tag as `lang` and `hreflang` take it (BCP 47: a language, then region or script subtags).
const LANGUAGE_TAG_RE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/

/** True for a language tag: `pl`, `de-CH`, `zh-Hant-TW`; false for `pl_PL`, `x`, `en"><b>`. */
export const isLanguageTag = (value: unknown): boolean => typeof value === 'string' && LANGUAGE_TAG_RE.test(value)

/** Text from outside as a message shows it: cut to `max` characters with `…` (an API may send a page-long one). */
export const clipped = (text: string, max = 80): string => (text.length > max ? `${text.slice(0, max)}…` : text)
