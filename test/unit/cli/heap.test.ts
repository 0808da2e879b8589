import { describe, expect, it } from 'vitest'
import { defaultRenderThreads, RENDER_THREADS_MAX } from '../../../src/build/render-threads/threads.js'
import { BUILD_HEAP_GROWING_PERCENT, buildTakesEveryCpu, tuneHeapForBuild } from '../../../src/cli/heap.js'

describe('the build command tunes V8 heap growing', () => {
  // on a machine with spare CPUs, where only the heap growing is set
  const run = (execArgv: string[], nodeOptions?: string, cpus = 16) => {
    const set: string[] = []
    const returned = tuneHeapForBuild({ execArgv, nodeOptions }, { setFlags: (flags) => set.push(flags), cpus })
    expect(returned).toEqual(set)
    return set
  }

  it('to double the live heap between full collections', () => {
    expect(run(['--enable-source-maps'])).toEqual([`--heap-growing-percent=${BUILD_HEAP_GROWING_PERCENT}`])
    expect(BUILD_HEAP_GROWING_PERCENT).toBe(100)
  })

  it.each([[['--heap-growing-percent=30']], [['--max-old-space-size=512', '--heap_growing_percent=50']]])(
    'unless the user set it: %j',
    (execArgv) => expect(run(execArgv)).toEqual([]),
  )

  it('unless NODE_OPTIONS sets it', () => {
    expect(run([], '--max-old-space-size=512  --heap-growing-percent=30')).toEqual([])
    expect(run([], '--max-old-space-size=512')).toHaveLength(1)
  })
})

describe('the build command collects young garbage in one thread', () => {
  const run = (cpus: number, execArgv: string[] = []) =>
    tuneHeapForBuild({ execArgv }, { setFlags: () => {}, cpus }).filter((flag) => flag.includes('scavenge'))

  it('when the build thread and its render workers take every CPU', () => {
    expect([1, 2, 3, 4, 5, 16].map(defaultRenderThreads)).toEqual([1, 1, 2, 3, 4, RENDER_THREADS_MAX])
    expect([1, 2, 4, RENDER_THREADS_MAX + 1].every(buildTakesEveryCpu)).toBe(true)
    expect(run(2)).toEqual(['--no-parallel-scavenge'])
  })

  it('not when CPUs are left over, nor when the user chose', () => {
    expect([RENDER_THREADS_MAX + 2, 16].some(buildTakesEveryCpu)).toBe(false)
    expect(run(16)).toEqual([])
    expect(run(2, ['--parallel-scavenge'])).toEqual([])
    expect(run(2, ['--no_parallel_scavenge'])).toEqual([])
  })
})
