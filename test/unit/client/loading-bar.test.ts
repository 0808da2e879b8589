import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  createBarPainter,
  createLoadingBar,
  estimateProgress,
  LOADING_BAR_ERROR_COLOR,
  type LoadingBarState,
} from '../../../src/client/loading-bar.js'
import { LOADING_BAR } from '../../../src/shared/client-constants.js'
import { fakeTimers } from './fake-timers.js'

function setup() {
  const painted: LoadingBarState[] = []
  const bar = createLoadingBar({ timers: fakeTimers(), paint: (state) => painted.push(state) })
  return { bar, painted }
}

describe('loading bar', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('is not shown for a navigation that finishes within the 200 ms throttle', () => {
    const { bar, painted } = setup()
    bar.start()
    vi.advanceTimersByTime(LOADING_BAR.throttleMs - 1)
    bar.finish()
    vi.advanceTimersByTime(5_000)
    expect(painted.some((s) => s.visible)).toBe(false)
    expect(bar.state.visible).toBe(false)
  })

  it('appears after the throttle and progresses on the 2000 ms estimate without reaching 100', () => {
    const { bar } = setup()
    bar.start()
    vi.advanceTimersByTime(LOADING_BAR.throttleMs - 1)
    expect(bar.state.visible).toBe(false)
    vi.advanceTimersByTime(1)
    expect(bar.state).toMatchObject({ visible: true, progress: 0, error: false })
    vi.advanceTimersByTime(LOADING_BAR.durationMs)
    expect(bar.state.progress).toBeCloseTo(estimateProgress(LOADING_BAR.durationMs, LOADING_BAR.durationMs), 5)
    expect(bar.state.progress).toBeGreaterThan(50)
    vi.advanceTimersByTime(60_000)
    expect(bar.state.progress).toBeLessThan(100)
  })

  it('fills up when finished, hides 500 ms later and resets 400 ms after that', () => {
    const { bar } = setup()
    bar.start()
    vi.advanceTimersByTime(LOADING_BAR.throttleMs + 300)
    bar.finish()
    expect(bar.state).toMatchObject({ visible: true, progress: 100 })
    vi.advanceTimersByTime(LOADING_BAR.hideDelayMs - 1)
    expect(bar.state.visible).toBe(true)
    vi.advanceTimersByTime(1)
    expect(bar.state).toMatchObject({ visible: false, progress: 100 })
    vi.advanceTimersByTime(LOADING_BAR.resetDelayMs - 1)
    expect(bar.state.progress).toBe(100)
    vi.advanceTimersByTime(1)
    expect(bar.state).toMatchObject({ visible: false, progress: 0, error: false })
  })

  it('shows the error state at once on failure, even within the throttle', () => {
    const { bar } = setup()
    bar.start()
    vi.advanceTimersByTime(50)
    bar.fail()
    expect(bar.state).toMatchObject({ visible: true, progress: 100, error: true })
    vi.advanceTimersByTime(LOADING_BAR.hideDelayMs + LOADING_BAR.resetDelayMs)
    expect(bar.state).toMatchObject({ visible: false, progress: 0, error: false })
  })

  it('a finish while it already hides (a navigation failed, then was cancelled) lets it hide and reset', () => {
    const { bar } = setup()
    bar.start()
    vi.advanceTimersByTime(50)
    bar.fail()
    vi.advanceTimersByTime(100)
    bar.finish()
    vi.advanceTimersByTime(LOADING_BAR.hideDelayMs + LOADING_BAR.resetDelayMs)
    expect(bar.state).toMatchObject({ visible: false, progress: 0, error: false })
  })

  it('a new navigation while the bar is shown keeps it shown', () => {
    const { bar } = setup()
    bar.start()
    vi.advanceTimersByTime(LOADING_BAR.throttleMs + 500)
    const before = bar.state.progress
    bar.start()
    vi.advanceTimersByTime(100)
    expect(bar.state.visible).toBe(true)
    expect(bar.state.progress).toBeGreaterThanOrEqual(before)
  })

  it('paints a fixed bar 3 px high, red with data-state="error" on failure', () => {
    const attributes: Record<string, string> = {}
    const element = {
      style: { cssText: '', opacity: '', transform: '', backgroundColor: '' },
      setAttribute: (k: string, v: string) => {
        attributes[k] = v
      },
    }
    const paint = createBarPainter(element)
    expect(element.style.cssText).toContain(`height:${LOADING_BAR.heightPx}px`)
    expect(element.style.cssText).toContain('position:fixed')
    expect(attributes['data-state']).toBe('idle')
    paint({ visible: true, progress: 50, error: false })
    expect(element.style).toMatchObject({ opacity: '1', transform: 'scaleX(0.500)' })
    expect(attributes['data-state']).toBe('loading')
    paint({ visible: true, progress: 100, error: true })
    expect(element.style.backgroundColor).toBe(LOADING_BAR_ERROR_COLOR)
    expect(LOADING_BAR_ERROR_COLOR).toMatch(/#dc2626/)
    expect(attributes['data-state']).toBe('error')
  })
})
