/**
 * What the router keeps in `history.state`: the page path of the entry and its
 * scroll position, saved while the visitor scrolls so that back/forward restore it.
 */

export interface EntryState {
  site: 1
  path: string
  x: number
  y: number
}

/** Quiet time after the last scroll event before the position is written to history. */
const SCROLL_SAVE_DELAY_MS = 120

export const readEntry = (state: unknown): EntryState | undefined => {
  if (!state || typeof state !== 'object') return undefined
  const entry = state as Partial<EntryState>
  return entry.site === 1 && typeof entry.path === 'string'
    ? { site: 1, path: entry.path, x: Number(entry.x) || 0, y: Number(entry.y) || 0 }
    : undefined
}

/**
 * The scroll position saved in an entry, also in one the browser made for a `#anchor` link (no `path`:
 * the tracker's scroll saving wrote only `x` and `y` into it).
 */
export const readScroll = (state: unknown): { x: number; y: number } | undefined => {
  if (!state || typeof state !== 'object') return undefined
  const { x, y } = state as Partial<EntryState>
  return typeof x === 'number' && typeof y === 'number' ? { x, y } : undefined
}

export interface HistoryTracker {
  push(path: string, url: string): void
  replace(path: string, url: string): void
  /** Writes the current scroll position into the current entry now. */
  saveScroll(): void
}

export function createHistoryTracker(win: Window): HistoryTracker {
  const { history } = win
  const current = (): Record<string, unknown> =>
    history.state && typeof history.state === 'object' ? history.state : {}
  let timer: number | undefined
  const saveScroll = () => {
    win.clearTimeout(timer)
    timer = undefined
    const state = current()
    if (state.x === win.scrollX && state.y === win.scrollY) return
    try {
      history.replaceState({ ...state, x: win.scrollX, y: win.scrollY }, '')
    } catch {
      // Browsers rate-limit history writes; losing one scroll position is harmless.
    }
  }
  win.addEventListener(
    'scroll',
    () => {
      win.clearTimeout(timer)
      timer = win.setTimeout(saveScroll, SCROLL_SAVE_DELAY_MS)
    },
    { passive: true },
  )
  win.addEventListener('pagehide', saveScroll)
  return {
    push(path, url) {
      saveScroll()
      history.pushState({ site: 1, path, x: 0, y: 0 } satisfies EntryState, '', url)
    },
    replace(path, url) {
      history.replaceState({ site: 1, path, x: 0, y: 0 } satisfies EntryState, '', url)
    },
    saveScroll,
  }
}
