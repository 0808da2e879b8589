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

const parseStamps = (text: string | null): object => {
  try {
    // `null` as no stamps; any other value's entries are read and all but numbers dropped below
    return JSON.parse(text ?? '{}') ?? {}
  } catch {
    // A damaged entry is rewritten below; it must not block reloads for the whole session.
    return {}
  }
}

export type StorageLike = Pick<Storage, 'getItem' | 'setItem'>

export function createReloadGuard({
  storage,
  now,
}: {
  storage: StorageLike | undefined
  now: () => number
}): ReloadGuard {
  return {
    allow(path) {
      // Without a working storage the guard cannot remember anything: refusing is the safe side.
      if (!storage) return false
      try {
        const time = now()
        const stamps: Record<string, number> = {}
        for (const [p, t] of Object.entries(parseStamps(storage.getItem(RELOAD_GUARD_KEY))))
          if (typeof t === 'number' && time - t < RELOAD_GUARD_MS && t <= time) stamps[p] = t
        const allowed = stamps[path] === undefined
        if (allowed) stamps[path] = time
        storage.setItem(RELOAD_GUARD_KEY, JSON.stringify(stamps))
        return allowed
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
