/**
 * Client navigation, loaded by the entry after hydration (a separate chunk, off the
 * critical path): router, payload cache, prefetching, loading bar and head updates.
 */
import type { RenderState } from '../render/types.js'
// Straight from the runtime's React-free modules: importing `site/runtime` (React components)
// would make esbuild move React into a chunk shared with the entry, costing first-load bytes.
import { buildHead, getBodyClass } from '../runtime/head.js'
import { getHtmlAttrs } from '../runtime/languages.js'
import type { InitialDataLoader } from './boot.js'
import { announcePage } from './events.js'
import { applyDocumentAttrs, applyHead } from './head.js'
import { createBarPainter, createLoadingBar } from './loading-bar.js'
import type { ManifestCheck } from './manifest-check.js'
import { createPayloadCache } from './payload-cache.js'
import { fetchPayload } from './payloads.js'
import { createPrefetchQueue, watchLinks } from './prefetch.js'
import type { ReloadGuard } from './reload-guard.js'
import { createRouter, type Router } from './router.js'
import { browserTimers } from './timers.js'
import { pushPageView } from './tracking.js'

export interface NavigationOptions {
  window: Window
  buildId: string
  state: RenderState
  initialDataUrl: string | undefined
  loadInitialData: InitialDataLoader
  guard: ReloadGuard
  manifest: ManifestCheck | undefined
  /** Renders a state; resolves once React committed it. */
  render(state: RenderState): Promise<void>
  /** Ids of the runtime's loading-bar host and main landmark (`LOADING_BAR_ID`, `MAIN_ID`). */
  ids: { loadingBar: string; main: string }
}

function focusMain(doc: Document, id: string) {
  const main = doc.getElementById(id) ?? doc.querySelector('main')
  if (!main) return
  if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1')
  main.focus({ preventScroll: true })
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
  const fetchFn = (url: string, init: RequestInit) => win.fetch(url, init)
  const barElement = doc.getElementById(options.ids.loadingBar) ?? doc.body.appendChild(doc.createElement('div'))
  const bar = createLoadingBar({ timers: browserTimers, paint: createBarPainter(barElement) })
  const payloads = createPayloadCache({ load: (path) => fetchPayload({ path, buildId: options.buildId, fetch: fetchFn }) })
  const router = createRouter({
    ...options,
    payloads,
    bar,
    afterRender: (_previous, next, mode) => {
      applyHead(doc, buildHead(next))
      const attrs = getHtmlAttrs(next)
      applyDocumentAttrs(doc, { lang: attrs.lang, dir: attrs.dir, bodyClass: getBodyClass(next) })
      closePopovers(doc)
      focusMain(doc, options.ids.main)
      pushPageView(win, { title: doc.title, path: win.location.pathname })
      announcePage(win, { state: next, kind: mode })
      links.refresh()
    },
  })
  const saveData = (win.navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true
  const queue = createPrefetchQueue({ load: (path) => payloads.get(path) })
  const links = watchLinks({ document: doc, toPath: router.toPath, queue, hoverOnly: saveData })
  links.refresh()
  return router
}
