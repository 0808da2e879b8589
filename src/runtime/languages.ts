/** The languages of a page (`i18n`): which entries the site shows (the current one: `currentLanguage` in head.ts). */
import type { RenderState } from '../shared/contract.js'
import type { LanguageEntry } from '../shared/types.js'
import type { LocaleOptions } from '../shared/url.js'
import { isRecord } from './element.js'

const isLanguage = (value: unknown): value is LanguageEntry =>
  isRecord(value) &&
  typeof value.twoLetterIsoCode === 'string' &&
  value.twoLetterIsoCode !== '' &&
  typeof value.link === 'string'

/** The language part of a locale, lower case: `de-CH` -> `de`. */
export const langOf = (locale: string): string => (locale.split('-')[0] ?? locale).toLowerCase()

/**
 * The entries of the site's configured locales, in API order (the API may list languages
 * the site does not publish, e.g. 15 in the contract fixture); all entries when none match.
 */
export function siteLanguages(entries: unknown, i18n: LocaleOptions): LanguageEntry[] {
  if (!Array.isArray(entries)) return []
  const valid = entries.filter(isLanguage)
  const codes = new Set(i18n.locales.map(langOf))
  const own = valid.filter((entry) => codes.has(entry.twoLetterIsoCode.toLowerCase()))
  return own.length > 0 ? own : valid
}

/** The page's own language entries (translated links); the site-wide ones when the page has none. */
export function pageLanguages(state: Pick<RenderState, 'page' | 'initialData' | 'site'>): LanguageEntry[] {
  const own = siteLanguages(state.page?.i18n, state.site.i18n)
  return own.length > 0 ? own : siteLanguages(state.initialData?.i18n, state.site.i18n)
}
