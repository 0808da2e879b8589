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

export function startPreviewEvents(win: Window, url = RELOAD_EVENTS_URL): EventSource | undefined {
  if (typeof EventSource !== 'function') return undefined
  const source = new EventSource(url)
  source.addEventListener('reload', () => {
    source.close()
    win.location.reload()
  })
  source.addEventListener('problem', (event: MessageEvent<string>) => {
    const problem = readProblem(event.data)
    if (problem) showProblem(win.document, problem)
    else hideProblem(win.document)
  })
  return source
}

startPreviewEvents(window)
