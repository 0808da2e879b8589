/**
 * The visitor client: loads what the page hydrates with (its locale's texts; the templates
 * of its main only when one of them is marked `'use client'`, else the main keeps the
 * server's markup; each is its own chunk, see templates.ts), hydrates the prerendered page
 * (and, on a page whose only marked templates are content elements, each of those on its
 * own: islands.tsx) from `#__SITE_BOOT__`, whose `hydration` says which of these the page is
 * (the server decides it, see `decideHydration` in src/hydration/plan.ts). Everything else waits in `navigation.ts`
 * (its own chunk: client navigation, the new-build check), loaded once the browser is idle or the
 * visitor reaches for a link, whichever comes first. The page's loader (src/render/document.ts) imports this
 * module once the page has painted or at the visitor's first action, and counts the page view itself.
 */

import lazyTemplates from 'site:templates/lazy'
import { startTransition, useLayoutEffect } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { LOADING_BAR_ID, MAIN_ID, SiteApp } from '../runtime/SiteApp.js'
import type { RenderState, TemplateRegistry } from '../shared/contract.js'
import { APP_ROOT_ID } from '../shared/layout.js'
import { createInitialDataLoader, createTimedFetch, readBoot, within } from './boot.js'
import { isChunkLoadError, watchChunkErrors } from './chunk-errors.js'
import { announcePage } from './events.js'
import { toClickNavigation } from './links.js'
import { createReloadGuard, getSessionStorage } from './reload-guard.js'
import type { Router } from './router.js'
import { createTemplateLoader } from './templates.js'

interface RootProps {
  state: RenderState
  registry: TemplateRegistry
  keptMain?: { __html: string }
  onCommit(state: RenderState): void
}

// Renders exactly what the server rendered (no DOM of its own) and reports each commit.
function Root({ state, registry, keptMain, onCommit }: RootProps) {
  useLayoutEffect(() => onCommit(state), [state, onCommit])
  return <SiteApp state={state} registry={registry} keptMain={keptMain} />
}

async function start(win: Window): Promise<void> {
  const doc = win.document
  const boot = readBoot(doc)
  const fetchFn = createTimedFetch(win)
  const loadInitialData = createInitialDataLoader(fetchFn)
  const guard = createReloadGuard({ storage: getSessionStorage(), now: Date.now })
  const reloadHere = () => {
    if (guard.allow(win.location.pathname)) win.location.reload()
  }
  // A template that throws in the browser: the prerendered page is still right, load it in full.
  const onUncaughtError = (error: unknown) => {
    console.error(error)
    reloadHere()
  }
  watchChunkErrors(win, reloadHere)

  // What the page hydrates with and its initial data, in parallel: hydration renders synchronously from both.
  // A main that needs no template code keeps the server's markup: its templates load with the first client navigation.
  const templates = createTemplateLoader(lazyTemplates)
  // The server decided it (`decideHydration`), as the page's preloads.
  const { hydration } = boot
  const main = hydration.kind === 'kept' || hydration.kind === 'islands' ? doc.getElementById(MAIN_ID) : null
  // An island page: its 'use client' content elements hydrate on their own, in the kept main (islands.tsx).
  const islands = main && hydration.kind === 'islands' && hydration.islands.length > 0 ? hydration.islands : undefined
  const onChunkError = (error: unknown) => {
    // A template chunk that does not load: the same guarded reload as any chunk load error.
    if (isChunkLoadError(error)) reloadHere()
    throw error
  }
  const [initialData, registry, islandsModule] = await Promise.all([
    boot.state.initialData ?? loadInitialData(boot.initialDataUrl ?? ''),
    templates.load(boot.state, { main: !main, islands: islands?.map((island) => island.template) }).catch(onChunkError),
    islands ? import('./islands.js').catch(onChunkError) : undefined,
  ])
  const state: RenderState = { ...boot.state, initialData }
  const container = doc.getElementById(APP_ROOT_ID)
  if (!container) throw new Error(`site: #${APP_ROOT_ID} is missing; the page cannot hydrate`)

  const commits = new Map<RenderState, () => void>()
  const onCommit = (committed: RenderState) => {
    commits.get(committed)?.()
    commits.delete(committed)
  }
  const committed = (target: RenderState) => new Promise<void>((resolve) => commits.set(target, resolve))
  const hydrated = committed(state)
  const keptMain = main ? { __html: main.innerHTML } : undefined
  // Hydrated as a transition: React yields to the browser every few milliseconds instead of holding the
  // main thread for the whole tree, so input stays responsive and no long task blocks it (Total Blocking Time).
  let root!: ReturnType<typeof hydrateRoot>
  startTransition(() => {
    root = hydrateRoot(container, <Root state={state} registry={registry} keptMain={keptMain} onCommit={onCommit} />, {
      onUncaughtError,
    })
  })
  await hydrated
  // After the page's root: the kept main is in place. Unmounted before the main renders anew.
  let hydratedIslands =
    main && islands && islandsModule
      ? islandsModule.hydrateIslands({
          state,
          registry,
          islands,
          main,
          onUncaughtError,
        })
      : undefined
  await hydratedIslands?.hydrated

  // The page view of this load is the loader's (src/render/document.ts): it counts readers the client never loads for.
  announcePage(win, { state, kind: 'hydrate' })

  let router: Router | undefined
  let loading: Promise<Router> | undefined
  const loadNavigation = () =>
    (loading ??= import('./navigation.js').then(({ startNavigation }) => {
      router = startNavigation({
        window: win,
        clientVersion: boot.clientVersion,
        state,
        initialDataUrl: boot.initialDataUrl,
        loadInitialData,
        fetch: fetchFn,
        guard,
        ids: { loadingBar: LOADING_BAR_ID, main: MAIN_ID },
        loadTemplates: (page, locale) =>
          templates.load({ page, locale, editorPreview: state.editorPreview, site: state.site }),
        render: (next) => {
          const done = committed(next)
          // The router loaded the page's templates first: the registry has them.
          const element = <Root state={next} registry={templates.registry} onCommit={onCommit} />
          // The island roots in the kept main go first (islands.tsx).
          const islandRoots = hydratedIslands
          hydratedIslands = undefined
          if (islandRoots) islandRoots.replace(() => root.render(element))
          else root.render(element)
          return done
        },
      })
      return router
    }))
  // Until the router is there, a click on a page link waits for it (not longer than a request) rather than loading the page in full.
  doc.addEventListener('click', (event) => {
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null
    const url =
      !router && anchor instanceof HTMLAnchorElement ? toClickNavigation(event, anchor, win.location) : undefined
    if (!url) return
    event.preventDefault()
    within(win, loadNavigation()).then(
      (loaded) => loaded.navigate(url),
      () => win.location.assign(url.href),
    )
  })
  doc.addEventListener('pointerover', () => void loadNavigation(), { once: true })
  const idle = win.requestIdleCallback ?? ((fn: () => void) => win.setTimeout(fn, 1))
  idle(() => void loadNavigation())
}

start(window).catch((error: unknown) => {
  // The prerendered page keeps working without the client: links stay plain links.
  console.error(error)
})
