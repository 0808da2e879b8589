/**
 * The error overlay of preview: a dialog over the page, in a shadow root of its own (the site's styles
 * do not reach it, its own do not leak), written as text only (the message may hold anything).
 */
import type { PreviewProblem } from '../../shared/contract.js'

/** Id of the overlay's host element. */
const OVERLAY_ID = 'site-error-overlay'

const STYLES = `
:host{all:initial}
.backdrop{position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.66);display:flex;align-items:flex-start;justify-content:center;overflow:auto;font:14px/1.5 system-ui,sans-serif}
.panel{margin:8vh 16px;max-width:960px;width:100%;background:#181818;color:#eee;border-top:6px solid #e5484d;border-radius:6px;padding:20px 24px;box-shadow:0 10px 40px rgba(0,0,0,.5)}
h2{margin:0 0 8px;font-size:18px;color:#ff8589}
.where{font-family:ui-monospace,monospace;color:#9ecbff;margin:0 0 12px}
pre{margin:0 0 12px;padding:12px;background:#000;border-radius:4px;overflow:auto;font:13px/1.45 ui-monospace,monospace;white-space:pre}
.message{white-space:pre-wrap;color:#ffb3b3}
.note{color:#aaa;font-size:12px;margin:0}
`

const element = (doc: Document, tag: string, className: string, text: string): HTMLElement => {
  const el = doc.createElement(tag)
  el.className = className
  el.textContent = text
  return el
}

/** A `pre` that scrolls sideways when its lines are long: in the tab order, so a keyboard can scroll it. */
const scrollable = (el: HTMLElement): HTMLElement => {
  el.tabIndex = 0
  return el
}

export function showProblem(doc: Document, problem: PreviewProblem): void {
  hideProblem(doc)
  const host = doc.createElement('div')
  host.id = OVERLAY_ID
  const root = host.attachShadow({ mode: 'open' })
  const style = doc.createElement('style')
  style.textContent = STYLES
  const panel = doc.createElement('div')
  panel.className = 'panel'
  panel.setAttribute('role', 'alertdialog')
  panel.setAttribute('aria-label', problem.title)
  // focused when shown: behind the backdrop, Tab would walk links no one sees
  panel.tabIndex = -1
  const where = problem.file
    ? `${problem.file}${problem.line ? `:${problem.line}` : ''}${problem.column ? `:${problem.column}` : ''}`
    : ''
  panel.append(
    element(doc, 'h2', 'title', problem.title),
    ...(where ? [element(doc, 'p', 'where', where)] : []),
    ...(problem.frame ? [scrollable(element(doc, 'pre', 'frame', problem.frame))] : []),
    scrollable(element(doc, 'pre', 'message', problem.message)),
    element(
      doc,
      'p',
      'note',
      'Preview keeps serving the last version that compiled. Fix the file and save: this page reloads.',
    ),
  )
  const backdrop = doc.createElement('div')
  backdrop.className = 'backdrop'
  backdrop.append(panel)
  root.append(style, backdrop)
  doc.body.append(host)
  // in a frame (the CMS's preview pane) only when it has the focus: not from the form an editor types in beside it
  const framed = doc.defaultView !== doc.defaultView?.top
  if (!framed || doc.hasFocus()) panel.focus()
}

export function hideProblem(doc: Document): void {
  doc.getElementById(OVERLAY_ID)?.remove()
}
