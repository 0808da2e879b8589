import { describe, expect, it } from 'vitest'
import { createPrefetchQueue } from '../../../src/client/prefetch.js'
import { PRELOAD_CONCURRENCY } from '../../../src/shared/client-constants.js'

function deferredLoads() {
  const pending = new Map<string, () => void>()
  const started: string[] = []
  const load = (path: string, intent: boolean) =>
    new Promise<void>((resolve) => {
      started.push(intent ? `${path}!` : path)
      pending.set(path, resolve)
    })
  const finish = async (path: string) => {
    pending.get(path)?.()
    pending.delete(path)
    await new Promise((r) => setTimeout(r, 0))
  }
  return { load, started, finish }
}

describe('prefetch queue (preload concurrency 4)', () => {
  it('runs at most 4 loads at once, each path once', async () => {
    const loads = deferredLoads()
    const queue = createPrefetchQueue({ load: loads.load })
    for (const p of ['/1', '/2', '/3', '/4', '/5', '/6', '/1']) queue.add(p)
    expect(PRELOAD_CONCURRENCY).toBe(4)
    expect(queue.active).toBe(4)
    expect(loads.started).toEqual(['/1', '/2', '/3', '/4'])
    await loads.finish('/2')
    expect(loads.started).toEqual(['/1', '/2', '/3', '/4', '/5'])
    expect(queue.active).toBe(4)
  })

  it('puts hovered links first', async () => {
    const loads = deferredLoads()
    const queue = createPrefetchQueue({ load: loads.load, concurrency: 1 })
    queue.add('/a')
    queue.add('/b')
    queue.add('/c')
    queue.add('/c', true)
    queue.add('/d', true)
    await loads.finish('/a')
    expect(loads.started).toEqual(['/a', '/d!'])
    await loads.finish('/d')
    expect(loads.started).toEqual(['/a', '/d!', '/c!'])
  })

  it('tells a link in view (a guess) from one reached for (an intent), and loads a seen link again as an intent', async () => {
    const loads = deferredLoads()
    const queue = createPrefetchQueue({ load: loads.load, concurrency: 1 })
    queue.add('/a')
    queue.add('/b')
    queue.add('/a', true)
    expect(loads.started).toEqual(['/a'])
    await loads.finish('/a')
    expect(loads.started).toEqual(['/a', '/a!'])
    queue.add('/a', true)
    queue.add('/a')
    await loads.finish('/a')
    await loads.finish('/b')
    expect(loads.started).toEqual(['/a', '/a!', '/b'])
  })

  it('turns a waiting guess into an intent in place, not a second load', async () => {
    const loads = deferredLoads()
    const queue = createPrefetchQueue({ load: loads.load, concurrency: 1 })
    queue.add('/a')
    queue.add('/b')
    queue.add('/c')
    queue.add('/c', true)
    await loads.finish('/a')
    await loads.finish('/c')
    await loads.finish('/b')
    expect(loads.started).toEqual(['/a', '/c!', '/b'])
  })

  it('keeps going after a failed load', async () => {
    let calls = 0
    const queue = createPrefetchQueue({
      load: async () => {
        calls++
        throw new Error('x')
      },
      concurrency: 1,
    })
    queue.add('/a')
    queue.add('/b')
    await new Promise((r) => setTimeout(r, 0))
    await new Promise((r) => setTimeout(r, 0))
    expect(calls).toBe(2)
    expect(queue.active).toBe(0)
  })
})
