/**
 * Islands (see `decideHydration`): a page whose main keeps the server's markup but renders content
 * elements marked `'use client'` hydrates each of them on its own, as a React root in its frame
 * `#c<uid>`: the root renders what the frame holds (the element's template, without the frame), in the
 * same contexts as the server's render (the site context of SiteApp, the element's context). Its own
 * chunk, loaded (and preloaded) only by such pages, with the runtime chunk the templates import anyway.
 */
import { useLayoutEffect } from 'react'
import { flushSync } from 'react-dom'
import { hydrateRoot, type Root } from 'react-dom/client'
import { ElementBody } from '../runtime/ContentElement.js'
import { SiteContext, type SiteContextValue } from '../runtime/context.js'
import { checkElement } from '../runtime/element.js'
import type { BootIsland, RenderState, TemplateRegistry } from '../shared/contract.js'
import type { ContentElement } from '../shared/types.js'

export interface HydrateIslandsOptions {
  state: RenderState
  registry: TemplateRegistry
  /** As the boot lists them (`hydration.islands`): each element is the one with its uid in `state.page`. */
  islands: BootIsland[]
  /** The kept main: islands are looked up in it. */
  main: Element
  onUncaughtError(error: unknown): void
}

export interface HydratedIslands {
  /** Resolves once every island has committed its hydration. */
  hydrated: Promise<void>
  /**
   * Unmounts every island root, then renders the main anew at once with `render` (React replaces the
   * kept main: the island roots in it go first, and no empty islands are painted).
   */
  replace(render: () => void): void
}

interface Island {
  element: ContentElement
  index: number
}

function IslandRoot({ value, island, onCommit }: { value: SiteContextValue; island: Island; onCommit(): void }) {
  useLayoutEffect(() => onCommit(), [onCommit])
  return (
    <SiteContext.Provider value={value}>
      <ElementBody element={island.element} index={island.index} framed={false} />
    </SiteContext.Provider>
  )
}

/** The content elements under `value` with one of `uids`, by uid (an island's uid is unique on its page). */
function elementsByUid(value: unknown, uids: ReadonlySet<number>): Map<number, ContentElement> {
  const found = new Map<number, ContentElement>()
  const pending: unknown[] = [value]
  const seen = new Set<object>()
  while (pending.length > 0 && found.size < uids.size) {
    const item = pending.pop()
    if (typeof item !== 'object' || item === null || seen.has(item)) continue
    seen.add(item)
    if (!Array.isArray(item)) {
      const check = checkElement(item)
      if (check.ok && uids.has(check.element.id) && !found.has(check.element.id))
        found.set(check.element.id, check.element)
    }
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push(child)
  }
  return found
}

export function hydrateIslands({
  state,
  registry,
  islands,
  main,
  onUncaughtError,
}: HydrateIslandsOptions): HydratedIslands {
  // As SiteApp makes it.
  const value: SiteContextValue = {
    site: { ...state, debug: state.debug && state.mode === 'preview' },
    registry,
    problems: [],
  }
  const roots: Root[] = []
  const commits: Array<Promise<void>> = []
  const elements = elementsByUid(state.page?.content, new Set(islands.map((island) => island.uid)))
  for (const { uid, index } of islands) {
    // The server skips an element whose template threw: no frame, nothing to hydrate.
    const element = elements.get(uid)
    const frame = element ? main.querySelector(`[id="c${uid}"]`) : null
    if (!element || !frame) continue
    const island = { element, index }
    commits.push(
      new Promise<void>((resolve) => {
        roots.push(
          hydrateRoot(frame, <IslandRoot value={value} island={island} onCommit={resolve} />, { onUncaughtError }),
        )
      }),
    )
  }
  return {
    hydrated: Promise.all(commits).then(() => undefined),
    replace(render) {
      for (const root of roots.splice(0)) root.unmount()
      flushSync(render)
    },
  }
}
