import { describe, expect, it } from 'vitest'
import { createReloadGuard } from '../../../src/client/reload-guard.js'
import { RELOAD_GUARD_KEY, RELOAD_GUARD_MS } from '../../../src/shared/client-constants.js'

const memoryStorage = () => {
  const data = new Map<string, string>()
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data }
}

describe('reload guard (once per 10 s per path)', () => {
  it('allows one reload per path within the window, then again after it', () => {
    let now = 1_000_000
    const storage = memoryStorage()
    const guard = createReloadGuard({ storage, now: () => now })
    expect(guard.allow('/a')).toBe(true)
    expect(guard.allow('/a')).toBe(false)
    expect(guard.allow('/b')).toBe(true)
    now += RELOAD_GUARD_MS - 1
    expect(guard.allow('/a')).toBe(false)
    now += 1
    expect(guard.allow('/a')).toBe(true)
  })

  it('keeps its timestamps in sessionStorage, so a reloaded page sees them', () => {
    const storage = memoryStorage()
    const now = () => 5_000
    expect(createReloadGuard({ storage, now }).allow('/pl/o-nas')).toBe(true)
    expect(JSON.parse(storage.data.get(RELOAD_GUARD_KEY) ?? '{}')).toEqual({ '/pl/o-nas': 5_000 })
    // A new page (new guard object) after the reload.
    expect(createReloadGuard({ storage, now }).allow('/pl/o-nas')).toBe(false)
  })

  it('drops expired entries and survives garbage in storage', () => {
    const storage = memoryStorage()
    storage.setItem(RELOAD_GUARD_KEY, JSON.stringify({ '/old': 1, '/x': 'nope' }))
    expect(createReloadGuard({ storage, now: () => 100_000 }).allow('/new')).toBe(true)
    expect(Object.keys(JSON.parse(storage.data.get(RELOAD_GUARD_KEY) ?? '{}'))).toEqual(['/new'])
    storage.setItem(RELOAD_GUARD_KEY, '{not json')
    expect(createReloadGuard({ storage, now: () => 100_000 }).allow('/new')).toBe(true)
    expect(createReloadGuard({ storage, now: () => 100_000 }).allow('/new')).toBe(false)
  })

  it('refuses when storage is unavailable or throws: no reload loop without memory', () => {
    expect(createReloadGuard({ storage: undefined, now: () => 0 }).allow('/')).toBe(false)
    const throwing = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => undefined,
    }
    expect(createReloadGuard({ storage: throwing, now: () => 0 }).allow('/')).toBe(false)
  })
})
