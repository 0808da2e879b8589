/**
 * Preview pages only (a separate bundle, never in a built site): listens to the preview server's
 * event stream. `reload`: templates, config or public files changed and the server serves the new
 * version, the tab reloads. `problem`: the change does not compile (the server keeps serving the last
 * good version), an overlay names the file and line with the code around it, until a fix reloads the tab.
 */
import type { PreviewProblem } from '../../shared/contract.js'
import { RELOAD_EVENTS_URL } from '../../shared/layout.js'
import { hideProblem, showProblem } from './overlay.js'

function readProblem(data: string): PreviewProblem | undefined {
  try {
    const value: unknown = JSON.parse(data)
    return typeof value === 'object' && value !== null && 'message' in value ? (value as PreviewProblem) : undefined
  } catch {
    return undefined
  }
}

/** An event of the server's stream, as one tab passes it on to the others. */
interface PreviewEvent {
  type: 'reload' | 'problem'
  data?: string
}

/** The Web Lock held by the tab that holds the stream, and the channel it passes the events on over. */
const SHARED_STREAM = 'site-preview-events'

function listen(url: string, handle: (event: PreviewEvent) => void): void {
  const source = new EventSource(url)
  source.addEventListener('reload', () => {
    source.close()
    handle({ type: 'reload' })
  })
  source.addEventListener('problem', (event: MessageEvent<string>) => handle({ type: 'problem', data: event.data }))
}

/**
 * A browser opens at most 6 connections to one host over HTTP/1.1, and a stream holds one for as long as its tab
 * is open: with one stream per tab, the seventh preview tab would never load. So one tab of the browser (the
 * holder of a Web Lock, the next tab when it goes) holds the stream and passes its events on to the others; a tab
 * that opens asks it for the problem shown. Without Web Locks (plain http on a host other than loopback) each
 * tab holds its own.
 */
export function startPreviewEvents(win: Window, url = RELOAD_EVENTS_URL): void {
  if (typeof EventSource !== 'function') return
  const handle = (event: PreviewEvent) => {
    if (event.type === 'reload') {
      win.location.reload()
      return
    }
    const problem = readProblem(event.data ?? '')
    if (problem) showProblem(win.document, problem)
    else hideProblem(win.document)
  }
  const locks = win.navigator.locks as LockManager | undefined
  if (!locks || typeof BroadcastChannel !== 'function') {
    listen(url, handle)
    return
  }
  const channel = new BroadcastChannel(SHARED_STREAM)
  let holder = false
  let shown: string | undefined // the problem the stream told last
  channel.onmessage = ({ data }: MessageEvent<PreviewEvent | 'opened'>) => {
    if (data !== 'opened') handle(data)
    else if (holder && shown !== undefined) channel.postMessage({ type: 'problem', data: shown })
  }
  // held until the tab goes
  void locks.request(SHARED_STREAM, () => {
    holder = true
    listen(url, (event) => {
      if (event.type === 'problem') shown = event.data
      channel.postMessage(event)
      handle(event)
    })
    return new Promise<never>(() => {})
  })
  channel.postMessage('opened')
}

startPreviewEvents(window)
