/**
 * The contract between the visitor entry and the editor entry (two bundles on one
 * page): after hydration and after every client navigation the visitor entry stores
 * the page under `PAGE_KEY` on `window` and dispatches `PAGE_EVENT` on `window`.
 * What a static page tells anyone listening about deploys is navigation.ts's (`BUILD_EVENT`): the entry's
 * files go into every page's first load, whatever the lazy chunks import of them.
 */
import type { RenderState } from '../shared/contract.js'

const PAGE_EVENT = 'site:page'
/**
 * A registered symbol, not a property name: `window.__site` would already be the
 * `<div id="__site">` (named access on window) before anything is hydrated.
 */
const PAGE_KEY = Symbol.for('site:page')

export type PageEventKind = 'hydrate' | 'push' | 'replace' | 'pop'

export interface PageEventDetail {
  state: RenderState
  kind: PageEventKind
}

declare global {
  interface Window {
    /** Set once the page is hydrated; the editor entry may load before or after that. */
    [PAGE_KEY]?: { state: RenderState }
    dataLayer?: unknown[]
  }
}

export function announcePage(win: Window, detail: PageEventDetail): void {
  win[PAGE_KEY] = { state: detail.state }
  win.dispatchEvent(new CustomEvent<PageEventDetail>(PAGE_EVENT, { detail }))
}

/** Calls `listener` for every page shown from now on, and at once when one is already shown. */
export function onPage(win: Window, listener: (detail: PageEventDetail) => void): void {
  win.addEventListener(PAGE_EVENT, (event) => listener((event as CustomEvent<PageEventDetail>).detail))
  const shown = win[PAGE_KEY]
  if (shown) listener({ state: shown.state, kind: 'hydrate' })
}
