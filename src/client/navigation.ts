/**
 * Everything the visitor client does after hydration, loaded by the entry as a separate
 * chunk, off the critical path: client navigation (router, payload cache, prefetching of
 * payloads and the template chunks they render with, loading bar, head updates) and the
 * new-build check (static site only).
 */

// Straight from the runtime's React-free modules: what navigation itself needs, no more.
import { buildHead, getBodyClass, getHtmlAttrs } from '../runtime/head.js'
import type { RenderState } from '../shared/contract.js'
import type { PageData } from '../shared/types.js'
import type { FetchLike, InitialDataLoader } from './boot.js'
import { announcePage } from './events.js'
import { applyDocumentAttrs, applyHead } from './head.js'
import { createBarPainter, createLoadingBar } from './loading-bar.js'
import { createManifestCheck } from './manifest-check.js'
import { createPayloadCache } from './payload-cache.js'
import { fetchPayload } from './payloads.js'
import { createPrefetchQueue, watchLinks } from './prefetch.js'
import type { ReloadGuard } from './reload-guard.js'
import { createRouteAnnouncer } from './route-announcer.js'
import { anchorOf, createRouter, type Router } from './router.js'
import { browserTimers } from './timers.js'
import { pushPageView } from './tracking.js'

/**
 * Dispatched on `window` when the tab learns of a newer build (manifest-check.ts):
 * `reload: false` when only content changed (the next navigations show it, on payloads),
 * `reload: true` when the client code changed (the next navigation is a full page load).
 */
const BUILD_EVENT = 'site:build'

export interface BuildEventDetail {
  id: string
  clientVersion?: string
  reload: boolean
}

export function announceBuild(win: Window, detail: BuildEventDetail): void {
  win.dispatchEvent(new CustomEvent<BuildEventDetail>(BUILD_EVENT, { detail }))
}

export interface NavigationOptions {
  window: Window
  /** The version of this tab's client code (BootState.clientVersion). */
  clientVersion: string
  state: RenderState
  initialDataUrl: string | undefined
  loadInitialData: InitialDataLoader
  /** The window's `fetch` with the client's request timeout (createTimedFetch): payloads and latest.json. */
  fetch: FetchLike
  guard: ReloadGuard
  /** Loads the template and texts chunks a page in a locale renders with (see templates.ts); before a render, and to warm a page whose link the visitor reaches for. */
  loadTemplates(page: PageData, locale: string): Promise<unknown>
  /** Renders a state whose templates are loaded; resolves once React committed it. */
  render(state: RenderState): Promise<void>
  /** Ids of the runtime's loading-bar host and main landmark (`LOADING_BAR_ID`, `MAIN_ID`). */
  ids: { loadingBar: string; main: string }
}

/**
 * Focus goes where the visitor reads on after a client render: the `#section` the URL names (a keyboard or screen
 * reader user continues from it, as from the content the view scrolled to), else the main landmark.
 */
function focusContent(doc: Document, mainId: string) {
  const fragment = doc.location.hash.slice(1)
  const target = (fragment ? anchorOf(doc, fragment) : null) ?? doc.getElementById(mainId) ?? doc.querySelector('main')
  if (!target) return
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1')
  target.focus({ preventScroll: true })
}

// Popovers (menus, the language switcher) are browser state React does not render: a
// freshly loaded page has them closed, so a client-rendered one must too.
function closePopovers(doc: Document) {
  try {
    for (const element of Array.from(doc.querySelectorAll<HTMLElement>(':popover-open'))) element.hidePopover()
  } catch {
    // `:popover-open` unsupported: no popovers to close.
  }
}

export function startNavigation(options: NavigationOptions): Router {
  const { window: win } = options
  const doc = win.document
  const fetchFn = options.fetch
  // The new-build check (its first read is deferred further): static site only. The page's loader registers the service worker.
  const isStatic = options.state.mode === 'static'
  const manifest = isStatic
    ? createManifestCheck({
        clientVersion: options.clientVersion,
        fetch: fetchFn,
        timers: browserTimers,
        visibility: doc,
        // payloads fetched before are of the older build: the next navigations ask for the current ones
        onNewContent: (latest) => {
          payloads.clear()
          announceBuild(win, { ...latest, reload: false })
        },
        onNewBuild: (latest) => announceBuild(win, { ...latest, reload: true }),
      })
    : undefined
  manifest?.start()
  const barElement = doc.getElementById(options.ids.loadingBar) ?? doc.body.appendChild(doc.createElement('div'))
  const bar = createLoadingBar({ timers: browserTimers, paint: createBarPainter(barElement) })
  const announcer = createRouteAnnouncer(doc)
  const payloads = createPayloadCache({
    load: (path) => fetchPayload({ path, clientVersion: options.clientVersion, fetch: fetchFn }),
  })
  const router = createRouter({
    ...options,
    manifest,
    payloads,
    bar,
    afterRender: (_previous, next, mode) => {
      applyHead(doc, buildHead(next))
      const attrs = getHtmlAttrs(next)
      applyDocumentAttrs(doc, { lang: attrs.lang, dir: attrs.dir, bodyClass: getBodyClass(next) })
      closePopovers(doc)
      focusContent(doc, options.ids.main)
      announcer.announce()
      pushPageView(win, { title: doc.title, path: win.location.pathname })
      announcePage(win, { state: next, kind: mode })
      links.refresh()
    },
  })
  const saveData = (win.navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true
  // A page the visitor reaches for also warms the template chunks it renders with (a failure there is the
  // navigation's to handle); a link in view only fetches its payload: evaluating chunks for every link on
  // the screen right after load kept the main thread busy for what is rarely clicked (Total Blocking Time).
  const prefetch = async (path: string, intent: boolean) => {
    const result = await payloads.get(path)
    if (intent && result.type === 'page' && result.payload.status === 200)
      await options.loadTemplates(result.payload.page, result.payload.locale).catch(() => undefined)
  }
  const queue = createPrefetchQueue({ load: prefetch })
  const links = watchLinks({ document: doc, toPath: router.toPath, queue, hoverOnly: saveData })
  links.refresh()
  return router
}
