/**
 * The engine's own labels (editor preview, document title of a bare error page).
 * The site's wording lives in templates/texts.ts; this is only what the engine renders itself.
 */

/** Picks the entry of a per-locale table: exact locale, its language part, the default locale, then `en`. */
export function pickLocale<T>(table: Readonly<Record<string, T>>, locale: string, fallback = 'en'): T {
  const own = (key: string): T | undefined => (Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined)
  const found = own(locale) ?? own(locale.split('-')[0] ?? '') ?? own(fallback) ?? own('en')
  if (found !== undefined) return found
  const first = Object.values(table)[0]
  if (first === undefined) throw new TypeError('pickLocale: empty table')
  return first
}

export interface EngineTexts {
  /** Label of the editor preview edit link. */
  edit: string
  /** The same link once the editor works on the element (the client switches to it). */
  editing: string
  /** `<title>` of an error page that has no page content. */
  notFoundTitle: string
  errorTitle: (status: number) => string
}

export const ENGINE_TEXTS: Readonly<Record<string, EngineTexts>> = {
  en: {
    edit: 'Edit',
    editing: 'You are currently editing this element',
    notFoundTitle: 'Page not found',
    errorTitle: (status) => `Error ${status}`,
  },
  pl: {
    edit: 'Edytuj',
    editing: 'Obecnie edytujesz ten element',
    notFoundTitle: 'Nie znaleziono strony',
    errorTitle: (status) => `Błąd ${status}`,
  },
  de: {
    edit: 'Bearbeiten',
    editing: 'Sie bearbeiten gerade dieses Element',
    notFoundTitle: 'Seite nicht gefunden',
    errorTitle: (status) => `Fehler ${status}`,
  },
}
