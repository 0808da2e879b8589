import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createManifestCheck, readLatestBuild } from '../../../src/client/manifest-check.js'
import { MANIFEST_CHECK_DELAY_MS, MANIFEST_CHECK_INTERVAL_MS } from '../../../src/shared/client-constants.js'
import { LATEST_MANIFEST_URL } from '../../../src/shared/layout.js'
import { fakeTimers } from './fake-timers.js'

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function visibility() {
  const listeners = new Set<() => void>()
  return {
    visibilityState: 'visible',
    addEventListener: (_: 'visibilitychange', fn: () => void) => void listeners.add(fn),
    removeEventListener: (_: 'visibilitychange', fn: () => void) => void listeners.delete(fn),
    fire() {
      for (const fn of listeners) fn()
    },
    listeners,
  }
}

describe('manifest check (new build detection)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('waits 1 s after start, reads latest.json with no-store, and detects new client code', async () => {
    let latest = { id: 'b1', clientVersion: 'c1' }
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => json(latest))
    const onNewBuild = vi.fn()
    const check = createManifestCheck({ clientVersion: 'c1', fetch, timers: fakeTimers(), onNewBuild })
    check.start()
    await vi.advanceTimersByTimeAsync(MANIFEST_CHECK_DELAY_MS - 1)
    expect(fetch).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(fetch).toHaveBeenCalledWith(LATEST_MANIFEST_URL, expect.objectContaining({ cache: 'no-store' }))
    expect(check.isStale()).toBe(false)
    // a build of other content with the same client code: the tab keeps navigating on payloads
    latest = { id: 'b2', clientVersion: 'c1' }
    await vi.advanceTimersByTimeAsync(MANIFEST_CHECK_INTERVAL_MS)
    expect(fetch).toHaveBeenCalledTimes(2)
    expect(check.isStale()).toBe(false)
    latest = { id: 'b3', clientVersion: 'c2' }
    await vi.advanceTimersByTimeAsync(MANIFEST_CHECK_INTERVAL_MS)
    expect(fetch).toHaveBeenCalledTimes(3)
    expect(check.isStale()).toBe(true)
    expect(onNewBuild).toHaveBeenCalledWith({ id: 'b3', clientVersion: 'c2' })
    // Once stale, polling stops.
    await vi.advanceTimersByTimeAsync(MANIFEST_CHECK_INTERVAL_MS * 3)
    expect(fetch).toHaveBeenCalledTimes(3)
  })

  it('checks again when the tab becomes visible', async () => {
    const fetch = vi.fn(async () => json({ id: 'b2', clientVersion: 'c2' }))
    const source = visibility()
    const check = createManifestCheck({ clientVersion: 'c1', fetch, timers: fakeTimers(), visibility: source })
    check.start()
    source.fire()
    await vi.advanceTimersByTimeAsync(0)
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(check.isStale()).toBe(true)
    expect(source.listeners.size).toBe(0)
  })

  it('ignores failures and bodies without an id; concurrent checks share one request', async () => {
    const fetch = vi.fn(async () => json({ nope: true }))
    const check = createManifestCheck({ clientVersion: 'c1', fetch, timers: fakeTimers() })
    const [a, b] = await Promise.all([check.check(), check.check()])
    expect(a).toBeUndefined()
    expect(b).toBeUndefined()
    expect(fetch).toHaveBeenCalledTimes(1)
    fetch.mockRejectedValueOnce(new TypeError('offline'))
    await expect(check.check()).resolves.toBeUndefined()
    fetch.mockResolvedValueOnce(json({ id: 'b9' }, 503))
    await expect(check.check()).resolves.toBeUndefined()
    expect(check.isStale()).toBe(false)
  })

  it('tells of a newer build with the same client code, without marking the tab stale', async () => {
    let latest = { id: 'b1', clientVersion: 'c1' }
    const fetch = vi.fn(async () => json(latest))
    const onNewContent = vi.fn()
    const check = createManifestCheck({ clientVersion: 'c1', fetch, timers: fakeTimers(), onNewContent })
    await check.check()
    await check.check()
    expect(onNewContent).not.toHaveBeenCalled()
    latest = { id: 'b2', clientVersion: 'c1' }
    await check.check()
    expect(onNewContent).toHaveBeenCalledTimes(1)
    expect(onNewContent).toHaveBeenCalledWith({ id: 'b2', clientVersion: 'c1' })
    await check.check()
    expect(onNewContent).toHaveBeenCalledTimes(1)
    expect(check.isStale()).toBe(false)
  })

  it('takes a latest.json of an older engine (no client version) for other client code', async () => {
    const fetch = vi.fn(async () => json({ id: 'b1', timestamp: 1 }))
    const check = createManifestCheck({ clientVersion: 'c1', fetch, timers: fakeTimers() })
    await check.check()
    expect(check.isStale()).toBe(true)
  })

  it('reads { id, clientVersion } and { buildId }', () => {
    expect(readLatestBuild({ id: 'x', clientVersion: 'c' })).toEqual({ id: 'x', clientVersion: 'c' })
    expect(readLatestBuild({ id: 'x' })).toEqual({ id: 'x' })
    expect(readLatestBuild({ buildId: 'y' })).toEqual({ id: 'y' })
    expect(readLatestBuild({ id: '' })).toBeUndefined()
    expect(readLatestBuild(null)).toBeUndefined()
  })
})
