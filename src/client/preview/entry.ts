/**
 * Preview pages only (a separate bundle, never in a built site): listens to the preview server's
 * event stream. `reload`: templates, config or public files changed and the server serves the new
 * version, the tab reloads. `problem`: the change does not compile (the server keeps serving the last
 * good version), an overlay names the file and line with the code around it, until a fix reloads the tab.
 * `version` (on connecting): the version pages are at; another than the page's means a reload came
 * before the stream connected, and the tab reloads.
 */
import type { PreviewProblem } from '../../shared/contract.js'
import { RELOAD_EVENTS_URL } from '../../shared/layout.js'
import { readBoot } from '../boot.js'
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
  type: 'reload' | 'problem' | 'version'
  data?: string
}

/** The Web Lock held by the tab that holds the stream, and the channel it passes the events on over. */
const SHARED_STREAM = 'site-preview-events'

function listen(url: string, handle: (event: PreviewEvent) => void, connected?: () => void): void {
  const source = new EventSource(url)
  if (connected) source.addEventListener('open', connected)
  source.addEventListener('reload', () => {
    source.close()
    handle({ type: 'reload' })
  })
  for (const type of ['problem', 'version'] as const)
    source.addEventListener(type, (event: MessageEvent<string>) => handle({ type, data: event.data }))
}

/** The page's stream, with the version of the templates and config it was rendered with (`?v=`). */
function streamOf(win: Window): { url: string; version: string | null } {
  let url = RELOAD_EVENTS_URL
  try {
    url = readBoot(win.document).reloadEventsUrl ?? url
  } catch {
    // no boot state: the stream without a version
  }
  return { url, version: new URL(url, win.location.href).searchParams.get('v') }
}

/**
 * A browser opens at most 6 connections to one host over HTTP/1.1, and a stream holds one for as long as its tab
 * is open: with one stream per tab, the seventh preview tab would never load. So one tab of the browser (the
 * holder of a Web Lock, the next tab when it goes) holds the stream and passes its events on to the others; a tab
 * that opens asks it for the version and problem it was told last. Without Web Locks (plain http on a host other than loopback) each
 * tab holds its own.
 */
export function startPreviewEvents(win: Window): void {
  if (typeof EventSource !== 'function') return
  const { url, version } = streamOf(win)
  const handle = (event: PreviewEvent) => {
    // a version other than the page's: a reload came between the page and its stream
    if (event.type === 'reload' || (event.type === 'version' && version !== null && event.data !== version)) {
      win.location.reload()
      return
    }
    if (event.type === 'version') return
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
  const told = new Map<PreviewEvent['type'], PreviewEvent>() // the stream's last version and problem
  channel.onmessage = ({ data }: MessageEvent<PreviewEvent | 'opened'>) => {
    if (data !== 'opened') handle(data)
    else if (holder) for (const event of told.values()) channel.postMessage(event)
  }
  // held until the tab goes
  void locks.request(SHARED_STREAM, () => {
    holder = true
    listen(
      url,
      (event) => {
        told.set(event.type, event)
        channel.postMessage(event)
        handle(event)
      },
      // each connection tells anew: what an earlier one told (a preview since restarted, whose pages are at another
      // version) would have every tab that opens reload for ever
      () => told.clear(),
    )
    return new Promise<never>(() => {})
  })
  channel.postMessage('opened')
}

startPreviewEvents(window)
