/**
 * Per-locale tables: which entry a locale reads. The engine's own labels are in
 * engine-texts.ts, the site's wording in templates/texts/<locale>.ts.
 */

/**
 * The key `pickLocale` reads of a per-locale table: exact locale, its language part, the default
 * locale (or its language part), `en`, then the first key; undefined for an empty table.
 * Example: (`{ en, de }`, `de-CH`) -> `de`; (`{ en, de }`, `fr-CH`, default `de-CH`) -> `de`.
 */
export function localeKey(table: object, locale: string, fallback = 'en'): string | undefined {
  const keys = [locale, locale.split('-')[0] ?? '', fallback, fallback.split('-')[0] ?? '', 'en']
  return keys.find((key) => Object.hasOwn(table, key)) ?? Object.keys(table)[0]
}

/** Picks the entry of a per-locale table: exact locale, its language part, the default locale's, then `en`. */
export function pickLocale<T>(table: Readonly<Record<string, T>>, locale: string, fallback = 'en'): T {
  const key = localeKey(table, locale, fallback)
  if (key === undefined) throw new TypeError('pickLocale: empty table')
  return table[key] as T
}
