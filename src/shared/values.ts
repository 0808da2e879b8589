/** Pure checks of values from JSON (API answers, config files, payloads), shared by server and browser. */

/** A JSON object: not null, not a list. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Orders strings by UTF-16 code units, as `sort()` does, whatever the locale: output that is the same everywhere. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

// A language tag as `lang` and `hreflang` take it (BCP 47: a language, then region or script subtags).
const LANGUAGE_TAG_RE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/

/** True for a language tag: `pl`, `de-CH`, `zh-Hant-TW`; false for `pl_PL`, `x`, `en"><b>`. */
export const isLanguageTag = (value: unknown): boolean => typeof value === 'string' && LANGUAGE_TAG_RE.test(value)
