/**
 * Client navigation on page payloads: intercepts internal link clicks and
 * back/forward, fetches `{path}/_payload.json`, renders it with the same
 * templates and keeps URL, head, scroll and focus in step. Anything it cannot
 * render here (404, other build, new build published) becomes a full page load.
 */

import { LOADING_BAR } from '../shared/client-constants.js'
import type { RenderState } from '../shared/contract.js'
import { ROUTER_KEY } from '../shared/layout.js'
import { isAbsoluteUrl } from '../shared/links.js'
import type { PageData } from '../shared/types.js'
import { normalizePagePath } from '../shared/url.js'
import { type InitialDataLoader, within } from './boot.js'
import type { PageEventKind } from './events.js'
import { createHistoryTracker, readEntry, readScroll } from './history.js'
import { toClickNavigation, toRoutableUrl } from './links.js'
import type { LoadingBar } from './loading-bar.js'
import type { ManifestCheck } from './manifest-check.js'
import type { PayloadCache } from './payload-cache.js'
import type { ReloadGuard } from './reload-guard.js'

/** Redirect chains longer than this end in a full page load. */
const MAX_CLIENT_REDIRECTS = 5

export type NavigationMode = Exclude<PageEventKind, 'hydrate'>

export interface RouterOptions {
  window: Window
  state: RenderState
  initialDataUrl: string | undefined
  payloads: PayloadCache
  loadInitialData: InitialDataLoader
  bar: LoadingBar
  guard: ReloadGuard
  manifest: ManifestCheck | undefined
  /**
   * Loads the templates a page renders with and its locale's texts (lazily loaded chunks), before
   * it is rendered; a rejection (a chunk that failed to load) makes the navigation fail into a full page load.
   */
  loadTemplates(page: PageData, locale: string): Promise<unknown>
  /** Renders a state whose templates are loaded; resolves once React committed it. */
  render(state: RenderState): Promise<void>
  /** Head, attributes, tracking, events: everything after the DOM shows the new page. */
  afterRender(previous: RenderState, next: RenderState, mode: NavigationMode): void
}

export interface Router {
  /** Without a mode, as a link click: a push, or a replace for the URL the tab is at. */
  navigate(url: URL, mode?: NavigationMode): Promise<void>
  /** The page path a link leads to when the router would handle it. */
  toPath(anchor: HTMLAnchorElement): string | undefined
  readonly state: RenderState
}

// A static host serves a page at `/a/index.html` too: its payload is `/a/_payload.json`.
const pathOf = (url: URL): string | undefined => {
  const checked = normalizePagePath(url.pathname.replace(/\/index\.html$/, '/'))
  return checked.ok ? checked.path : undefined
}

/**
 * The element a fragment names, as the browser finds it: by the fragment as it is, else percent-decoded (a
 * malformed escape, `#%E0%A4%A`, names no other element; it must not throw after the page has changed).
 */
export function anchorOf(document: Document, fragment: string): HTMLElement | null {
  const found = document.getElementById(fragment)
  if (found) return found
  try {
    return document.getElementById(decodeURIComponent(fragment))
  } catch {
    return null
  }
}

export function createRouter(options: RouterOptions): Router {
  const { window: win, payloads, bar, guard, manifest } = options
  const tracker = createHistoryTracker(win)
  let state = options.state
  // The path of the URL the shown page is at: an error page's `state.path` is its own (`/404`), not the URL's.
  let shownPath = pathOf(new URL(win.location.href))
  let initialDataUrl = options.initialDataUrl
  let seq = 0

  // Full page loads. `replace`/`pop` must not add an entry: the URL already is (or replaces) the current one.
  const load = (url: URL | string, mode: NavigationMode) =>
    mode === 'push' ? win.location.assign(String(url)) : win.location.replace(String(url))
  const guardedLoad = (url: URL, path: string, mode: NavigationMode): boolean => {
    if (!guard.allow(path)) return false
    load(url, mode)
    return true
  }

  // A link to the URL the tab is at replaces its entry, as the browser's own navigation does.
  const linkMode = (url: URL): NavigationMode => (url.href === win.location.href ? 'replace' : 'push')

  // In preview, keep `?pce=1`, `?debug` … across navigations: links in content do not carry them.
  const withPreviewQuery = (url: URL): URL => {
    if (state.mode !== 'preview') return url
    const next = new URL(url)
    for (const [key, value] of new URL(win.location.href).searchParams)
      if (!next.searchParams.has(key)) next.searchParams.set(key, value)
    return next
  }

  async function navigate(
    target: URL,
    mode: NavigationMode = 'push',
    scroll?: { x: number; y: number },
    hops = 0,
  ): Promise<void> {
    const token = ++seq
    const url = withPreviewQuery(target)
    const path = pathOf(url)
    if (path === undefined) return load(url, mode)
    if (manifest?.isStale() && guardedLoad(url, path, mode)) return
    bar.start()
    let result = await payloads.get(path)
    if (token !== seq) return
    if (result.type === 'error') {
      // STYLE 11: a failure after a redeploy is usually a stale build: re-read the manifest once, retry once.
      payloads.delete(path)
      await manifest?.check()
      if (token !== seq) return
      if (manifest?.isStale() && guardedLoad(url, path, mode)) return
      result = await payloads.get(path)
      if (token !== seq) return
    }
    if (result.type === 'error') return fail(url, path, mode, token)
    if (result.type === 'full-load') return load(url, mode)
    if (result.type === 'redirect') {
      const next = new URL(result.to, url)
      // As the host's 301 would: the link's query goes on to a target without one (as Netlify, Cloudflare Pages and
      // `site serve` pass it), its #fragment to a target without one (as the browser keeps it).
      if (!next.search) next.search = url.search
      if (!next.hash) next.hash = url.hash
      if (isAbsoluteUrl(result.to)) {
        if (mode === 'push') tracker.push(path, url.href)
        return win.location.replace(next.href)
      }
      if (next.origin !== url.origin || hops >= MAX_CLIENT_REDIRECTS) return load(next, mode)
      // The redirecting URL gets no entry of its own: its target is pushed once it has loaded, as any link's page
      // is (the address bar does not show the redirecting URL over the page left meanwhile).
      return navigate(next, mode === 'push' ? 'push' : 'replace', undefined, hops + 1)
    }
    const { payload } = result
    if (payload.status !== 200) return load(url, mode)
    // In parallel with the initial data below; awaited before anything changes.
    const templates = within(win, options.loadTemplates(payload.page, payload.locale))
    templates.catch(() => undefined)
    let initialData = state.initialData
    let dataUrl = initialDataUrl
    const localeChanged = payload.locale !== state.locale
    if (
      payload.initialDataUrl &&
      payload.initialDataUrl !== initialDataUrl &&
      (state.site.i18nMiddleware || !localeChanged)
    ) {
      try {
        initialData = await options.loadInitialData(payload.initialDataUrl)
        dataUrl = payload.initialDataUrl
      } catch {
        if (token === seq) fail(url, path, mode, token)
        return
      }
      if (token !== seq) return
    }
    try {
      await templates
    } catch {
      if (token === seq) fail(url, path, mode, token)
      return
    }
    if (token !== seq) return
    const { error: _error, ...rest } = state
    const next: RenderState = {
      ...rest,
      path: payload.path,
      locale: payload.locale,
      status: payload.status,
      page: payload.page,
      initialData,
    }
    if (mode === 'push') tracker.push(payload.path, url.href)
    else if (mode === 'replace') tracker.replace(payload.path, url.href)
    await options.render(next)
    if (token !== seq) return
    const previous = state
    state = next
    shownPath = path
    initialDataUrl = dataUrl
    restoreScroll(url, scroll)
    bar.finish()
    options.afterRender(previous, next, mode)
  }

  function fail(url: URL, path: string, mode: NavigationMode, token: number) {
    bar.fail()
    // Let the error colour show for a moment, then load the page in full. A link click or back/forward
    // cannot loop (the visitor asked for that page): always loaded, else the link would do nothing (or
    // the URL would change without the page). Only a replace (a redirect, the current URL) is guarded.
    win.setTimeout(() => {
      if (token !== seq) return
      if (mode === 'replace') guardedLoad(url, path, mode)
      else load(url, mode)
    }, LOADING_BAR.hideDelayMs)
  }

  function restoreScroll(url: URL, scroll: { x: number; y: number } | undefined) {
    if (scroll) return win.scrollTo(scroll.x, scroll.y)
    const anchor = url.hash ? anchorOf(win.document, url.hash.slice(1)) : null
    if (anchor) anchor.scrollIntoView()
    else win.scrollTo(0, 0)
  }

  win.document.addEventListener('click', (event) => {
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null
    if (!(anchor instanceof HTMLAnchorElement)) return
    const url = toClickNavigation(event, anchor, win.location)
    // A link the browser follows itself (a `#section` of this page makes its entry at once): the scroll position
    // goes into this entry now, not into the new one when the quiet time after the last scroll ends.
    if (!url) return tracker.saveScroll()
    event.preventDefault()
    void navigate(url, linkMode(url))
  })

  win.addEventListener('popstate', (event) => {
    const url = new URL(win.location.href)
    const entry = readEntry(event.state)
    // Scroll restoration is manual: the entry's saved position, else its `#anchor` (or the top).
    const scroll = readScroll(event.state)
    // Same page (an anchor entry the browser made): only the scroll changes. Compared with the URL the page is
    // at, not `state.path`: on a not-found page that is `/404`, and loading its URL again for a `#section` entry
    // would be a fragment navigation, whose popstate came back here without end.
    if (pathOf(url) === shownPath && (!entry || entry.path === state.path)) {
      // Like the browser's own back/forward, it ends a navigation still loading: that page must not follow.
      seq++
      bar.finish()
      return restoreScroll(url, scroll)
    }
    void navigate(url, 'pop', scroll)
  })

  win.history.scrollRestoration = 'manual'
  // Back/forward are the router's from now on, not the page loader's (src/render/document.ts).
  ;(win as unknown as Record<symbol, boolean>)[Symbol.for(ROUTER_KEY)] = true
  // A reload (or back to the entry after a full page load) keeps history.state: the page's loader put the
  // visitor back at its saved position already (src/render/document.ts); the entry gets where they are now.
  win.history.replaceState(
    { ...(win.history.state ?? {}), site: 1, path: state.path, x: win.scrollX, y: win.scrollY },
    '',
  )

  return {
    navigate: (url, mode) => navigate(url, mode ?? linkMode(url)),
    toPath(anchor) {
      const url = toRoutableUrl(anchor, win.location)
      return url ? pathOf(url) : undefined
    },
    get state() {
      return state
    },
  }
}
