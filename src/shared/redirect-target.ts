/**
 * The one rule for redirect targets (contract 3.5), used where a build writes a redirect
 * (its page, payload and `_redirects` line) and where preview answers one (`Location`).
 */
import { classifyLink } from './links.js'

/** Where a redirect goes: a path of this site (normalised; `page` false for a file), an external http(s) URL, or refused. */
export type RedirectTarget =
  | { type: 'internal'; path: string; to: string; page: boolean }
  | { type: 'external'; to: string }
  | { type: 'refused'; reason: string }

// An external target is sent on as it is: it must be an absolute http(s) URL with a host (a
// protocol-relative `//host/x` is refused: it is read differently on http and https), and hold
// nothing that could break out of a header or an attribute.
const EXTERNAL_RE = /^https?:\/\/[^/\s]/i
const BREAKOUT_RE = /[\s<>"'`\\]/
const CONTROL_RE = /[\u0000-\u001f\u007f]/

/**
 * Checks a redirect target. Site paths are normalised (query and hash kept); external
 * targets must be http(s). Example: '/pl/o-nas/?a=1' -> internal `/pl/o-nas`, to `/pl/o-nas?a=1`;
 * '/a/../b' and '/a/%2f' -> refused.
 */
export function checkRedirectTarget(url: unknown, baseUrl?: string): RedirectTarget {
  if (typeof url !== 'string' || url.trim() === '') return { type: 'refused', reason: 'empty redirect target' }
  if (CONTROL_RE.test(url)) return { type: 'refused', reason: 'control character' }
  const kind = classifyLink(url, baseUrl)
  switch (kind.type) {
    case 'page':
    case 'file':
      return {
        type: 'internal',
        path: kind.path,
        to: `${kind.path}${kind.search}${kind.hash}`,
        page: kind.type === 'page',
      }
    case 'external':
      if (EXTERNAL_RE.test(url) && !BREAKOUT_RE.test(url)) return { type: 'external', to: url }
      return { type: 'refused', reason: 'not a site path or an http(s) URL' }
    case 'anchor':
      return { type: 'refused', reason: 'not a site path or an http(s) URL' }
    case 'unsafe':
      return { type: 'refused', reason: kind.reason }
  }
}
