/**
 * Which link clicks the router takes over. Pure: works on plain objects, so the
 * rules are unit-tested without a DOM.
 */
import { classifyLink } from '../shared/links.js'

/** The parts of a `MouseEvent` the rules look at. */
export interface ClickLike {
  button: number
  metaKey: boolean
  ctrlKey: boolean
  shiftKey: boolean
  altKey: boolean
  defaultPrevented: boolean
}

/** The parts of an `HTMLAnchorElement` the rules look at. */
export interface AnchorLike {
  /** The resolved, absolute URL (`HTMLAnchorElement.href`). */
  href: string
  target: string
  hasAttribute(name: string): boolean
  getAttribute(name: string): string | null
}

/**
 * The URL a link leads to when it is a page of this site the router can render: a `page`
 * to the one link classifier (same origin, not a file, not under `/_site/`), not an anchor
 * on the current page, no `target`, no `download`, no `rel="external"`.
 * Example: (`/pl/o-nas?x=1`, on `https://s/`) -> URL `https://s/pl/o-nas?x=1`.
 */
export function toRoutableUrl(anchor: AnchorLike, current: { href: string }): URL | undefined {
  const raw = anchor.getAttribute('href')
  if (raw === null || raw.trim() === '' || raw.trim().startsWith('#')) return undefined
  const target = anchor.target.trim().toLowerCase()
  if (target !== '' && target !== '_self') return undefined
  if (anchor.hasAttribute('download')) return undefined
  if (/(^|\s)external(\s|$)/i.test(anchor.getAttribute('rel') ?? '')) return undefined
  let url: URL
  let here: URL
  try {
    url = new URL(anchor.href, current.href)
    here = new URL(current.href)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  if (classifyLink(url.href, here.origin).type !== 'page') return undefined
  // `#section` of the page we are on: the browser scrolls, nothing to load.
  if (url.hash !== '' && url.pathname === here.pathname && url.search === here.search) return undefined
  return url
}

/** True when the click is a plain primary-button click the page did not handle itself. */
function isPlainClick(event: ClickLike): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.ctrlKey &&
    !event.shiftKey &&
    !event.altKey
  )
}

/** The URL to navigate to on the client for this click, or undefined to let the browser handle it. */
export function toClickNavigation(event: ClickLike, anchor: AnchorLike, current: { href: string }): URL | undefined {
  return isPlainClick(event) ? toRoutableUrl(anchor, current) : undefined
}
