/**
 * The route loading bar (timings: LOADING_BAR): shown only when a navigation
 * takes longer than the throttle, progress paced on an estimated duration,
 * hidden after a delay once finished, then reset; an error colour on failure.
 * The state machine is separate from painting so tests drive it with fake timers.
 */
import { LOADING_BAR } from '../shared/client-constants.js'
import type { Timers } from './timers.js'

export interface LoadingBarState {
  visible: boolean
  /** 0 to 100. */
  progress: number
  error: boolean
}

export interface LoadingBar {
  start(): void
  finish(): void
  fail(): void
  readonly state: Readonly<LoadingBarState>
}

export type LoadingBarOptions = { [K in keyof typeof LOADING_BAR]: number }

/** How often the progress is advanced while the bar is shown. */
const PROGRESS_TICK_MS = 100

/**
 * Estimated progress after `elapsedMs`: fast at first, never reaching 100 on its own
 * (about 70 at the estimated duration, 84 at twice that).
 */
export const estimateProgress = (elapsedMs: number, durationMs: number): number =>
  Math.min(99, (2 / Math.PI) * 100 * Math.atan(((elapsedMs / durationMs) * 100) / 50))

export function createLoadingBar(input: {
  timers: Timers
  paint: (state: LoadingBarState) => void
  options?: LoadingBarOptions
}): LoadingBar {
  const { timers, paint } = input
  const options = input.options ?? LOADING_BAR
  const state: LoadingBarState = { visible: false, progress: 0, error: false }
  let throttle: unknown
  let tick: unknown
  let hide: unknown
  let reset: unknown
  let shownAt = 0

  const set = (next: Partial<LoadingBarState>) => {
    Object.assign(state, next)
    paint({ ...state })
  }
  const clearAll = () => {
    timers.clearTimeout(throttle)
    timers.clearInterval(tick)
    timers.clearTimeout(hide)
    timers.clearTimeout(reset)
    throttle = tick = hide = reset = undefined
  }
  const startTicking = (from: number) => {
    shownAt = from
    tick = timers.setInterval(
      () => set({ progress: estimateProgress(timers.now() - shownAt, options.durationMs) }),
      PROGRESS_TICK_MS,
    )
  }
  const hideLater = () => {
    hide = timers.setTimeout(() => {
      set({ visible: false })
      reset = timers.setTimeout(() => set({ progress: 0, error: false }), options.resetDelayMs)
    }, options.hideDelayMs)
  }

  return {
    get state() {
      return state
    },
    start() {
      const wasVisible = state.visible && hide === undefined && !state.error
      clearAll()
      if (wasVisible) {
        startTicking(shownAt)
        return
      }
      if (state.visible || state.progress !== 0 || state.error) set({ visible: false, progress: 0, error: false })
      throttle = timers.setTimeout(() => {
        throttle = undefined
        set({ visible: true, progress: 0, error: false })
        startTicking(timers.now())
      }, options.throttleMs)
    },
    finish() {
      // Already hiding (finished or failed): let that run out rather than leave the bar shown.
      if (hide !== undefined || reset !== undefined) return
      const shown = state.visible
      clearAll()
      if (!shown) return
      set({ progress: 100 })
      hideLater()
    },
    fail() {
      clearAll()
      set({ visible: true, progress: 100, error: true })
      hideLater()
    },
  }
}

/** The parts of an element the bar paints. */
export interface BarElement {
  style: Pick<CSSStyleDeclaration, 'cssText' | 'opacity' | 'transform' | 'backgroundColor'>
  setAttribute(name: string, value: string): void
}

const LOADING_BAR_COLOR = 'var(--site-loading-bar-color, #2563eb)'
export const LOADING_BAR_ERROR_COLOR = 'var(--site-loading-bar-error-color, #dc2626)'

/** Paints a state onto the bar element (fixed at the top, `heightPx` high). */
export function createBarPainter(
  element: BarElement,
  options: Pick<LoadingBarOptions, 'heightPx'> = LOADING_BAR,
): (state: LoadingBarState) => void {
  element.style.cssText =
    `position:fixed;top:0;left:0;right:0;height:${options.heightPx}px;z-index:2147483647;pointer-events:none;` +
    `transform-origin:0 50%;transform:scaleX(0);opacity:0;transition:transform 100ms linear,opacity 200ms ease;` +
    `background-color:${LOADING_BAR_COLOR}`
  element.setAttribute('aria-hidden', 'true')
  element.setAttribute('data-state', 'idle')
  return (state) => {
    element.style.opacity = state.visible ? '1' : '0'
    element.style.transform = `scaleX(${(state.progress / 100).toFixed(3)})`
    element.style.backgroundColor = state.error ? LOADING_BAR_ERROR_COLOR : LOADING_BAR_COLOR
    element.setAttribute('data-state', state.error ? 'error' : state.visible ? 'loading' : 'idle')
  }
}
