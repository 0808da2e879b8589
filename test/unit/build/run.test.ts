import { describe, expect, it } from 'vitest'
import { defaultRenderThreads, RENDER_THREADS_MAX } from '../../../src/build/run.js'

describe('defaultRenderThreads', () => {
  it('renders in the build thread on two CPUs or fewer', () => {
    expect(defaultRenderThreads(1)).toBe(0)
    expect(defaultRenderThreads(2)).toBe(0)
  })

  it('leaves one CPU to the build thread on larger machines, up to the cap', () => {
    expect(defaultRenderThreads(3)).toBe(2)
    expect(defaultRenderThreads(4)).toBe(3)
    expect(defaultRenderThreads(64)).toBe(RENDER_THREADS_MAX)
  })
})
