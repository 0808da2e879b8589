import { describe, expect, it } from 'vitest'
import { BUILD_HEAP_GROWING_PERCENT, tuneHeapForBuild } from '../../../src/cli/heap.js'

describe('the build command tunes V8 heap growing', () => {
  const run = (execArgv: string[], nodeOptions?: string) => {
    const set: string[] = []
    const done = tuneHeapForBuild({ execArgv, nodeOptions }, (flags) => set.push(flags))
    return { done, set }
  }

  it('to double the live heap between full collections', () => {
    expect(run(['--enable-source-maps'])).toEqual({
      done: true,
      set: [`--heap-growing-percent=${BUILD_HEAP_GROWING_PERCENT}`],
    })
    expect(BUILD_HEAP_GROWING_PERCENT).toBe(100)
  })

  it.each([[['--heap-growing-percent=30']], [['--max-old-space-size=512', '--heap_growing_percent=50']]])(
    'unless the user set it: %j',
    (execArgv) => expect(run(execArgv)).toEqual({ done: false, set: [] }),
  )

  it('unless NODE_OPTIONS sets it', () => {
    expect(run([], '--max-old-space-size=512  --heap-growing-percent=30')).toEqual({ done: false, set: [] })
    expect(run([], '--max-old-space-size=512').done).toBe(true)
  })
})
