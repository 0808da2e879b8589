/**
 * Says the new page's title to assistive technology after a client navigation. A full page load is
 * announced by the screen reader itself (a new document, its title); a client-rendered page is not:
 * moving focus to `<main>` only says "main", so the visitor does not learn which page they are on.
 * A visually hidden live region outside the React root (present, empty, from the router's start: a
 * live region must exist before its text changes to be read) gets the new title after each client
 * render, never on the first load.
 */

/** Id of the live region (one per document). */
export const ROUTE_ANNOUNCER_ID = 'site-route-announcer'

// Visually hidden, still in the accessibility tree (not `display: none`, not `hidden`); out of the layout flow.
const HIDDEN_STYLE =
  'position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0'

export interface RouteAnnouncer {
  /** Announces the page the document shows now: its title, else its first heading, else its path. */
  announce(): void
}

export function createRouteAnnouncer(doc: Document): RouteAnnouncer {
  let region = doc.getElementById(ROUTE_ANNOUNCER_ID)
  if (!region) {
    region = doc.createElement('div')
    region.id = ROUTE_ANNOUNCER_ID
    // Assertive: the focus move to `<main>` is announced at the same moment and must not drown the title.
    region.setAttribute('aria-live', 'assertive')
    region.setAttribute('aria-atomic', 'true')
    region.style.cssText = HIDDEN_STYLE
    doc.body.appendChild(region)
  }
  const live = region
  return {
    announce() {
      const heading = doc.querySelector('main h1')?.textContent?.trim()
      const text = doc.title.trim() || heading || doc.location.pathname
      live.textContent = text
    },
  }
}
