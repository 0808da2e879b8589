/**
 * Incremental discovery: a queue of page paths fed by what each visited page
 * links to, until no new path appears. Each path is visited once, however many
 * places link to it; cycles end. The crawler only schedules: the caller decides
 * how many visits may be in flight (the API's share is limited separately).
 * It knows at most `maxPaths` paths: the first one beyond stops the crawl.
 */
import type { StringPool } from '../page-table.js'
import type { CmsSource } from '../types.js'

/** Where a path was first found: navigation-like data (a 404 there fails the build) or page content. */
export type LinkOrigin = 'nav' | 'content'

export interface DiscoveredPath extends CmsSource {
  path: string
  origin: LinkOrigin
  /** The page (or `initial data (<locale>)`) that linked to it; `pageUid` and `elementUid` say where in it. */
  from: string
}

/**
 * The paths one page (or a locale's initial data) links to, by where they were found, each once per
 * list: how pages hand their links to the crawl. A DiscoveredPath is made only for a path the crawl has
 * not seen (or a navigation link to one seen in content): most links of a page (its menus) are known.
 */
export interface FoundLinks extends CmsSource {
  /** The page that holds them (its path, or `initial data (<locale>)`). */
  from: string
  /** Paths found in navigation-like places. */
  nav: string[]
  /** Paths found in content. */
  content: string[]
  /** The content element each content path was found in (same index), when known. */
  elementUids?: number[]
  /**
   * More paths, as ids of `pool`'s strings (a kept page's links, read from the page table without making a
   * string for each): navigation links, then content links. Most are known; only new ones become strings.
   */
  ids?: { pool: StringPool; nav: ArrayLike<number>; content: ArrayLike<number> }
}

export interface Crawler {
  /** Queues paths not seen before; a navigation link upgrades a path first seen in content. */
  add(found: FoundLinks): void
  /** How a path was found, for reporting broken links. */
  originOf(path: string): DiscoveredPath | undefined
  /** Visits until the queue is empty (or the crawl was stopped) and nothing is in flight. */
  run(): Promise<void>
  /** Starts no further visit; those in flight finish. */
  stop(): void
  /** Paths known so far (visited, in flight or queued). */
  readonly known: number
  readonly visited: number
}

export interface CrawlerOptions {
  /** Visits at most this many paths at once (bounds the memory held by pages being processed). */
  maxInFlight: number
  /** Knows at most this many paths: the first new one beyond goes to `onLimit`, once, and stops the crawl. @default Infinity */
  maxPaths?: number
  onLimit?(found: DiscoveredPath): void
  /**
   * Processes one path and resolves to the paths it links to (undefined: none). Must not reject. A visit with
   * nothing to wait for (a page kept as it is) answers at once: the crawl goes on without a promise for it.
   */
  visit(path: string): FoundLinks | undefined | Promise<FoundLinks | undefined>
  /** Once aborted, no further visit starts; `run()` resolves when those in flight are done. */
  signal?: AbortSignal
  /** The build's strings: FoundLinks.ids of this pool are looked up by id. */
  pool?: StringPool
}

/** How a path given by id is known to the crawl (see `levels`). */
const SEEN_IN_CONTENT = 1
const SEEN_IN_NAV = 2

export function createCrawler(options: CrawlerOptions): Crawler {
  const seen = new Map<string, DiscoveredPath>()
  const maxPaths = options.maxPaths ?? Number.POSITIVE_INFINITY
  let queue: string[] = []
  let head = 0
  let visited = 0
  let stopped = false

  const note = (found: FoundLinks, path: string, origin: LinkOrigin, elementUid: number | undefined) => {
    const known = seen.get(path)
    if (known && !(known.origin === 'content' && origin === 'nav')) return
    const discovered: DiscoveredPath = { from: found.from, path, origin }
    if (found.pageUid !== undefined) discovered.pageUid = found.pageUid
    if (elementUid !== undefined) discovered.elementUid = elementUid
    if (!known && seen.size >= maxPaths) {
      if (!stopped) options.onLimit?.(discovered)
      stopped = true
      return
    }
    seen.set(path, discovered)
    if (!known) queue.push(path)
  }
  // By pool id, how `seen` knows a path given by id (SEEN_IN_*), once looked up there: a kept page's fifty
  // links, most of them its menus, are checked without a string lookup each (1.5 million for 30,000 pages).
  const levels: number[] = []
  const noteId = (found: FoundLinks, pool: StringPool, id: number, origin: LinkOrigin) => {
    const level = levels[id]
    if (level === SEEN_IN_NAV || (level === SEEN_IN_CONTENT && origin === 'content')) return
    const path = pool.at(id)
    note(found, path, origin, undefined)
    const known = seen.get(path)
    if (known) levels[id] = known.origin === 'nav' ? SEEN_IN_NAV : SEEN_IN_CONTENT
  }
  const add = (found: FoundLinks | undefined) => {
    if (!found) return
    for (const path of found.nav) note(found, path, 'nav', undefined)
    const { content, elementUids, ids } = found
    for (let i = 0; i < content.length; i++) note(found, content[i]!, 'content', elementUids?.[i])
    if (!ids) return
    const byId = ids.pool === options.pool
    for (const [list, origin] of [
      [ids.nav, 'nav'],
      [ids.content, 'content'],
    ] as const)
      for (let i = 0; i < list.length; i++) {
        if (byId) noteId(found, ids.pool, list[i]!, origin)
        else note(found, ids.pool.at(list[i]!), origin, undefined)
      }
  }

  const next = (): string | undefined => {
    if (stopped || head >= queue.length) return undefined
    const path = queue[head++]
    if (head === queue.length) {
      queue = []
      head = 0
    }
    return path
  }

  async function run(): Promise<void> {
    const inFlight = new Set<Promise<void>>()
    // One waiter, woken by whichever visit ends: `Promise.race` over the visits in flight would hang a
    // reaction on each of them per wait (sixteen per page).
    let wake = () => {}
    let failed: { error: unknown } | undefined
    const start = (visit: Promise<FoundLinks | undefined>) => {
      const task: Promise<void> = visit
        .then(add)
        .catch((error: unknown) => {
          failed ??= { error }
        })
        .finally(() => {
          visited += 1
          inFlight.delete(task)
          wake()
        })
      inFlight.add(task)
    }
    for (;;) {
      while (!failed && inFlight.size < options.maxInFlight && !options.signal?.aborted) {
        const path = next()
        if (path === undefined) break
        let visit: ReturnType<CrawlerOptions['visit']>
        try {
          visit = options.visit(path)
        } catch (error) {
          visit = Promise.reject(error) // as a visit that rejects: a bug, the others settle first
        }
        if (visit instanceof Promise) start(visit)
        else {
          visited += 1
          add(visit)
        }
      }
      // a visit that throws is a bug: the others settle before the build cleans up
      if (failed && inFlight.size === 0) throw failed.error
      if (inFlight.size === 0) return
      await new Promise<void>((resolve) => {
        wake = resolve
      })
    }
  }

  return {
    add,
    originOf: (path) => seen.get(path),
    run,
    stop: () => {
      stopped = true
    },
    get known() {
      return seen.size
    },
    get visited() {
      return visited
    },
  }
}
