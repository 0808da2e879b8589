import { describe, expect, it, vi } from 'vitest'
import { createPayloadCache } from '../../../src/client/payload-cache.js'
import type { PayloadResult } from '../../../src/client/payloads.js'

describe('payload cache', () => {
  it('shares one request per path, forgets errors, evicts the oldest', async () => {
    const results: Record<string, PayloadResult> = { '/err': { type: 'error', message: 'x' } }
    const load = vi.fn(async (path: string) => results[path] ?? ({ type: 'full-load', reason: 'not-found' } as const))
    const cache = createPayloadCache({ load, limit: 2 })
    await Promise.all([cache.get('/a'), cache.get('/a')])
    expect(load).toHaveBeenCalledTimes(1)
    await cache.get('/err')
    await cache.get('/err')
    expect(load).toHaveBeenCalledTimes(3)
    await cache.get('/b')
    await cache.get('/c')
    await cache.get('/a')
    expect(load).toHaveBeenCalledTimes(6)
  })

  it('forgets every answer on clear (a newer build was published)', async () => {
    const load = vi.fn(async () => ({ type: 'full-load', reason: 'not-found' }) as const)
    const cache = createPayloadCache({ load })
    await cache.get('/a')
    await cache.get('/b')
    cache.clear()
    await cache.get('/a')
    await cache.get('/b')
    expect(load).toHaveBeenCalledTimes(4)
  })
})
