import { vi } from 'vitest'
import type { Timers } from '../../../src/client/timers.js'

/** Timers that go through vitest's fake clock (call `vi.useFakeTimers()` first). */
export const fakeTimers = (): Timers => ({
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
  now: () => vi.getMockedSystemTime()?.getTime() ?? Date.now(),
})
