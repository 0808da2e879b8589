/**
 * Prefetching payloads of links on hover and when they scroll into view, at most
 * `PRELOAD_CONCURRENCY` at once. The queue is pure; the DOM part
 * only finds links and calls it.
 *
 * A link in view is a guess, a hovered, focused or touched one an intent: `load` is told which,
 * so that the caller does only the cheap part (the payload) for a guess and warms what the page
 * renders with (its template chunks, whose evaluation is main-thread work) for an intent. A link
 * first seen in view and then reached for is loaded again as an intent.
 */
import { PRELOAD_CONCURRENCY } from '../shared/client-constants.js'

export interface PrefetchQueue {
  /** Queues a path (once per kind); `urgent` ones (hover, focus, touch: an intent) go first. */
  add(path: string, urgent?: boolean): void
  /** Loads currently running (for tests). */
  readonly active: number
}

interface Waiting {
  path: string
  intent: boolean
}

export function createPrefetchQueue(input: {
  /** Loads a path; `intent` when the visitor reached for its link, not only saw it. */
  load: (path: string, intent: boolean) => Promise<unknown>
  concurrency?: number
}): PrefetchQueue {
  const limit = input.concurrency ?? PRELOAD_CONCURRENCY
  // Queued so far, and whether as an intent.
  const seen = new Map<string, boolean>()
  const waiting: Waiting[] = []
  let active = 0

  const pump = () => {
    while (active < limit && waiting.length > 0) {
      const next = waiting.shift() as Waiting
      active++
      input
        .load(next.path, next.intent)
        .catch(() => undefined)
        .finally(() => {
          active--
          pump()
        })
    }
  }

  return {
    add(path, urgent = false) {
      const queued = seen.get(path)
      if (!urgent) {
        if (queued !== undefined) return
        seen.set(path, false)
        waiting.push({ path, intent: false })
        return pump()
      }
      // An intent goes first: in place of the path's waiting entry, or as a second load of a path
      // loaded as a guess; a path already loading or loaded as an intent is left as it is.
      const at = waiting.findIndex((item) => item.path === path)
      if (queued === true && at < 0) return
      if (at >= 0) waiting.splice(at, 1)
      seen.set(path, true)
      waiting.unshift({ path, intent: true })
      pump()
    },
    get active() {
      return active
    },
  }
}

/** Connects a queue to the links of a document: viewport entry (IntersectionObserver) and hover/focus. */
export function watchLinks(input: {
  document: Document
  /** The page path a link leads to when it is routable, else undefined. */
  toPath: (anchor: HTMLAnchorElement) => string | undefined
  queue: PrefetchQueue
  /** Skip viewport prefetching (data saver). */
  hoverOnly?: boolean
}): { refresh(): void } {
  const { document, toPath, queue } = input
  const onIntent = (event: Event) => {
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null
    if (anchor instanceof HTMLAnchorElement) {
      const path = toPath(anchor)
      if (path !== undefined) queue.add(path, true)
    }
  }
  document.addEventListener('pointerover', onIntent, { passive: true })
  document.addEventListener('focusin', onIntent, { passive: true })
  document.addEventListener('touchstart', onIntent, { passive: true })

  const observer =
    !input.hoverOnly && typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => {
          for (const entry of entries) {
            if (!entry.isIntersecting) continue
            observer?.unobserve(entry.target)
            const path = toPath(entry.target as HTMLAnchorElement)
            if (path !== undefined) queue.add(path)
          }
        })
      : undefined

  return {
    refresh() {
      if (!observer) return
      observer.disconnect()
      for (const anchor of Array.from(document.querySelectorAll('a[href]'))) {
        if (anchor instanceof HTMLAnchorElement && toPath(anchor) !== undefined) observer.observe(anchor)
      }
    },
  }
}
