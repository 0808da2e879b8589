/**
 * Server-sent events for open preview tabs: the server sends `reload` after
 * a rebuild and the client reloads; `problem` while a change does not compile
 * (the overlay, src/client/preview/), sent again to each tab that connects until
 * the next reload; `version`, to each tab that connects, the version the last reload
 * announced (a tab whose page is older missed it: it reloads). One hub per server, shared by every context it swaps in (so
 * tabs survive a reload of the config).
 */
export interface ReloadEvents {
  /** The `text/event-stream` answer of one tab; it ends when the tab goes or the hub closes. */
  connect(signal?: AbortSignal): Response
  /**
   * Sends one event to every open tab; `problem` also goes to each tab that connects until `reload` is sent, and a
   * `reload`'s data (the version of the pages now served) to each tab that connects, as a `version` event.
   */
  send(event: string, data?: string): void
  /** Open tabs. */
  readonly size: number
  close(): void
}

const encoder = new TextEncoder()

/** Browsers wait this long before reconnecting a dropped stream (the server restarting). */
const RETRY_MS = 1000

const toEvent = (event: string, data: string): Uint8Array =>
  encoder.encode(`event: ${event}\ndata: ${data.replace(/\n/g, '\ndata: ')}\n\n`)

export function createReloadEvents(): ReloadEvents {
  const tabs = new Set<ReadableStreamDefaultController<Uint8Array>>()
  let problem: Uint8Array | undefined
  let version: Uint8Array | undefined

  const drop = (tab: ReadableStreamDefaultController<Uint8Array>) => {
    if (!tabs.delete(tab)) return
    try {
      tab.close()
    } catch {
      // already closed by the other side
    }
  }

  return {
    connect(signal) {
      let self: ReadableStreamDefaultController<Uint8Array> | undefined
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          self = controller
          tabs.add(controller)
          controller.enqueue(encoder.encode(`retry: ${RETRY_MS}\n: connected\n\n`))
          if (version) controller.enqueue(version)
          if (problem) controller.enqueue(problem)
          signal?.addEventListener('abort', () => drop(controller), { once: true })
        },
        cancel() {
          if (self) tabs.delete(self)
        },
      })
      return new Response(body, {
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
        },
      })
    },
    send(event, data = '') {
      if (event === 'reload') problem = undefined
      if (event === 'reload' && data) version = toEvent('version', data)
      const chunk = toEvent(event, data)
      if (event === 'problem') problem = chunk
      for (const tab of tabs) {
        try {
          tab.enqueue(chunk)
        } catch {
          tabs.delete(tab)
        }
      }
    },
    get size() {
      return tabs.size
    },
    close() {
      for (const tab of [...tabs]) drop(tab)
    },
  }
}
