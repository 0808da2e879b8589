/**
 * Prefetching payloads of links on hover and when they scroll into view, at most
 * `PRELOAD_CONCURRENCY` at once (SPEC point 9). The queue is pure; the DOM part
 * only finds links and calls it.
 */
import { PRELOAD_CONCURRENCY } from '../shared/constants.js'

export interface PrefetchQueue {
  /** Queues a path (once); `urgent` ones (hover) go first. */
  add(path: string, urgent?: boolean): void
  /** Loads currently running (for tests). */
  readonly active: number
}

export function createPrefetchQueue(input: {
  load: (path: string) => Promise<unknown>
  concurrency?: number
}): PrefetchQueue {
  const limit = input.concurrency ?? PRELOAD_CONCURRENCY
  const seen = new Set<string>()
  const waiting: string[] = []
  let active = 0

  const pump = () => {
    while (active < limit && waiting.length > 0) {
      const path = waiting.shift() as string
      active++
      input
        .load(path)
        .catch(() => undefined)
        .finally(() => {
          active--
          pump()
        })
    }
  }

  return {
    add(path, urgent = false) {
      if (seen.has(path)) {
        // Already loaded or loading; a hover over a still-waiting link moves it to the front.
        const at = waiting.indexOf(path)
        if (urgent && at > 0) waiting.unshift(...waiting.splice(at, 1))
        return
      }
      seen.add(path)
      if (urgent) waiting.unshift(path)
      else waiting.push(path)
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
