/** The languages of a page (contract 5.4, 7.1): which entries the site shows, which one is current. */
import type { RenderState } from '../render/types.js'
import type { LanguageEntry } from '../shared/types.js'
import type { LocaleOptions } from '../shared/url.js'
import { isRecord } from './element.js'

const isLanguage = (value: unknown): value is LanguageEntry =>
  isRecord(value) && typeof value.twoLetterIsoCode === 'string' && value.twoLetterIsoCode !== '' && typeof value.link === 'string'

const langOf = (locale: string): string => (locale.split('-')[0] ?? locale).toLowerCase()

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

/** The entry of the current locale: by language code (contract 7.1), else the one marked active. */
export function currentLanguage(state: Pick<RenderState, 'page' | 'initialData' | 'site' | 'locale'>): LanguageEntry | undefined {
  const entries = pageLanguages(state)
  const lang = langOf(state.locale)
  return entries.find((entry) => entry.twoLetterIsoCode.toLowerCase() === lang) ?? entries.find((entry) => Boolean(entry.active))
}

const LANG_RE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/

/** `<html lang dir>`: the current language's code and direction (`ltr` unless it says `rtl`). */
export function getHtmlAttrs(state: RenderState): { lang: string; dir: string } {
  const entry = currentLanguage(state)
  const seoLang = state.page?.seo?.htmlAttrs?.lang
  const lang = [entry?.twoLetterIsoCode, seoLang, state.locale].find((v): v is string => typeof v === 'string' && LANG_RE.test(v))
  const dir = entry?.direction === 'rtl' || state.page?.seo?.htmlAttrs?.dir === 'rtl' ? 'rtl' : 'ltr'
  return { lang: lang ?? 'en', dir }
}
