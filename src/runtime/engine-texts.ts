/**
 * The engine's own labels (editor preview, document title of a bare error page), per locale
 * (read with `pickLocale`). The site's wording lives in templates/texts/; this is only what the
 * engine renders itself. A file of its own: no page's first-load JavaScript needs it.
 */

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
