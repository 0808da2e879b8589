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
  /** `<title>` of a not-found page that has no page content. */
  notFoundTitle: string
  /** Its meta description. */
  notFoundDescription: string
  errorTitle: (status: number) => string
}

export const ENGINE_TEXTS: Readonly<Record<string, EngineTexts>> = {
  en: {
    edit: 'Edit',
    editing: 'You are currently editing this element',
    notFoundTitle: 'Page not found',
    notFoundDescription:
      'The page you are looking for does not exist or has moved. The home page links to everything else.',
    errorTitle: (status) => `Error ${status}`,
  },
  pl: {
    edit: 'Edytuj',
    editing: 'Obecnie edytujesz ten element',
    notFoundTitle: 'Nie znaleziono strony',
    notFoundDescription:
      'Strona, której szukasz, nie istnieje lub została przeniesiona. Strona główna prowadzi do wszystkich pozostałych.',
    errorTitle: (status) => `Błąd ${status}`,
  },
  de: {
    edit: 'Bearbeiten',
    editing: 'Sie bearbeiten gerade dieses Element',
    notFoundTitle: 'Seite nicht gefunden',
    notFoundDescription:
      'Die gesuchte Seite existiert nicht oder wurde verschoben. Die Startseite führt zu allen anderen Seiten.',
    errorTitle: (status) => `Fehler ${status}`,
  },
}
