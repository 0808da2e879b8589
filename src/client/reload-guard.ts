/**
 * Forced full page loads (new build, chunk load error, a failed redirect or reload) happen
 * at most once per `RELOAD_GUARD_MS` per path, so that a broken deploy cannot
 * make a tab reload in a loop. Timestamps live in `sessionStorage`: they must
 * survive the reload they guard.
 */
import { RELOAD_GUARD_KEY, RELOAD_GUARD_MS } from '../shared/client-constants.js'

export interface ReloadGuard {
  /** True, and the reload recorded, when `path` was not force-reloaded within the window. */
  allow(path: string): boolean
}

const parseStamps = (text: string | null): unknown => {
  try {
    return JSON.parse(text ?? '{}')
  } catch {
    // A damaged entry is rewritten below; it must not block reloads for the whole session.
    return {}
  }
}

export type StorageLike = Pick<Storage, 'getItem' | 'setItem'>

export function createReloadGuard(input: {
  storage: StorageLike | undefined
  now: () => number
  windowMs?: number
  key?: string
}): ReloadGuard {
  const { storage, now } = input
  const windowMs = input.windowMs ?? RELOAD_GUARD_MS
  const key = input.key ?? RELOAD_GUARD_KEY
  return {
    allow(path) {
      // Without a working storage the guard cannot remember anything: refusing is the safe side.
      if (!storage) return false
      try {
        const time = now()
        const parsed = parseStamps(storage.getItem(key))
        const stamps: Record<string, number> = {}
        if (parsed && typeof parsed === 'object') {
          for (const [p, t] of Object.entries(parsed))
            if (typeof t === 'number' && time - t < windowMs && t <= time) stamps[p] = t
        }
        if (stamps[path] !== undefined) {
          storage.setItem(key, JSON.stringify(stamps))
          return false
        }
        stamps[path] = time
        storage.setItem(key, JSON.stringify(stamps))
        return true
      } catch {
        return false
      }
    },
  }
}

/** `sessionStorage`, or undefined where reading it throws (storage disabled). */
export function getSessionStorage(): StorageLike | undefined {
  try {
    return globalThis.sessionStorage
  } catch {
    return undefined
  }
}
