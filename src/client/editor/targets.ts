/**
 * The content element targets of the page: edit link labels, the element being
 * edited and its highlight. React owns these nodes, so labels change the existing
 * text node (never `textContent =`, which would detach React's node), and every
 * marker is re-applied after each render, since React reuses nodes across pages.
 */
const TARGET_SELECTOR = '.pce-target[data-pce-uid]'
export const EDIT_LINK_SELECTOR = 'a.pce-edit-link'
const HIGHLIGHT_CLASS = 'pce-target-highlight'
const FOCUSED_ATTR = 'data-pce-focused'

function setLabel(link: Element, text: string): void {
  const walker = link.ownerDocument.createTreeWalker(link, NodeFilter.SHOW_TEXT)
  const node = walker.nextNode()
  if (node) {
    if (node.nodeValue !== text) node.nodeValue = text
  } else {
    link.appendChild(link.ownerDocument.createTextNode(text))
  }
}

/** The edit link of a target: its first child, as Frame.tsx renders it (or any one inside it). */
const editLinkOf = (target: Element): Element | null =>
  target.firstElementChild?.matches(EDIT_LINK_SELECTOR)
    ? target.firstElementChild
    : target.querySelector(EDIT_LINK_SELECTOR)

export const findTarget = (doc: Document, uid: number): HTMLElement | null =>
  doc.querySelector<HTMLElement>(`.pce-target[data-pce-uid="${uid}"]`)

/**
 * Shows which element is being edited: its link reads `data-label-editing` and it gets the
 * highlight markers; every other link reads `data-label-edit` and loses them.
 */
export function markEditing(doc: Document, uid: number | undefined): HTMLElement | null {
  let found: HTMLElement | null = null
  for (const target of Array.from(doc.querySelectorAll<HTMLElement>(TARGET_SELECTOR))) {
    const editing = uid !== undefined && target.getAttribute('data-pce-uid') === String(uid)
    if (editing) found = target
    const link = editLinkOf(target)
    const label = link?.getAttribute(editing ? 'data-label-editing' : 'data-label-edit')
    if (link && label) setLabel(link, label)
    if (editing) {
      target.classList.add(HIGHLIGHT_CLASS)
      target.setAttribute(FOCUSED_ATTR, '')
    } else {
      target.classList.remove(HIGHLIGHT_CLASS)
      target.removeAttribute(FOCUSED_ATTR)
    }
  }
  return found
}
