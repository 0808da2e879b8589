/**
 * The one rule for redirect targets of CMS redirect records, used where a build writes a redirect
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
// C0, DEL and C1 controls: no URL holds them raw, and a header cannot carry them.
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/
// What may stand raw in a URL's path, query or fragment (RFC 3986 pchar, `/`, `?`, and `%` of an
// escape already made); everything else (non-ASCII, `"`, `<`, `|`, `^`, a second `#`, a `%` that
// starts no escape…) is percent-encoded.
const NOT_URL_CHAR_RE = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/gu
const AUTHORITY_RE = /^[a-z]+:\/\/[^/?#]*/i
const NON_ASCII_RE = /[^\u0000-\u007f]/

const encodeUrlChars = (text: string): string => text.replace(NOT_URL_CHAR_RE, (c) => encodeURIComponent(c))

/**
 * Percent-encodes (UTF-8) the characters of a path, query and fragment that may not stand raw in
 * a URL, keeping the `#` that starts the fragment: a target goes into a `Location` header, which
 * only carries ASCII, and into `_redirects`. Example: `?q=żółw#ä` -> `?q=%C5%BC%C3%B3%C5%82w#%C3%A4`.
 */
function encodeUrlTail(tail: string): string {
  const hashAt = tail.indexOf('#')
  if (hashAt < 0) return encodeUrlChars(tail)
  return `${encodeUrlChars(tail.slice(0, hashAt))}#${encodeUrlChars(tail.slice(hashAt + 1))}`
}

/**
 * An absolute http(s) URL in ASCII, or undefined when its host is not valid: the scheme in lower case, a host in
 * IDNA form (`bücher.example` -> `xn--bcher-kva.example`), the rest encoded.
 */
export function toAsciiUrl(url: string): string | undefined {
  const authority = AUTHORITY_RE.exec(url)?.[0] ?? ''
  // the scheme in lower case: a host reads a `_redirects` line whose target starts `HTTPS://` as an error
  let head = authority.replace(/^[a-z]+:/i, (scheme) => scheme.toLowerCase())
  if (NON_ASCII_RE.test(authority)) {
    try {
      head = new URL(url).origin
    } catch {
      return undefined
    }
  }
  return `${head}${encodeUrlTail(url.slice(authority.length))}`
}

/**
 * Checks a redirect target. Site paths are normalised (query and hash kept); external
 * targets must be http(s). The target is ASCII: what may not stand raw in a URL is
 * percent-encoded. Example: '/pl/o-nas/?a=1' -> internal `/pl/o-nas`,
 * to `/pl/o-nas?a=1`; '/a?q=ż' -> to `/a?q=%C5%BC`; '/a/../b', '/a/%2f' and '/a?\u0085' -> refused.
 * `from`, the path that redirects, is refused as its own target.
 */
export function checkRedirectTarget(url: unknown, baseUrl?: string, from?: string): RedirectTarget {
  if (typeof url !== 'string' || url.trim() === '') return { type: 'refused', reason: 'empty redirect target' }
  if (CONTROL_RE.test(url)) return { type: 'refused', reason: 'control character' }
  const kind = classifyLink(url, baseUrl)
  switch (kind.type) {
    case 'page':
    case 'file':
      // a host matches a rule by its path: one that sends a path to itself (whatever its query) never ends
      if (kind.path === from) return { type: 'refused', reason: 'a redirect to itself' }
      return {
        type: 'internal',
        path: kind.path,
        to: `${kind.path}${encodeUrlTail(`${kind.search}${kind.hash}`)}`,
        page: kind.type === 'page',
      }
    case 'external': {
      if (!EXTERNAL_RE.test(url)) return { type: 'refused', reason: 'not a site path or an http(s) URL' }
      // what the CMS should encode itself: a space or a quote could be where the address was meant to end
      if (BREAKOUT_RE.test(url))
        return { type: 'refused', reason: 'an http(s) URL with a space, a quote, < or > or a backslash in it' }
      // `https://www.example.com@evil.example/`: a visitor reads the site's own host where another one is
      if (AUTHORITY_RE.exec(url)?.[0].includes('@'))
        return { type: 'refused', reason: 'an http(s) URL with a user name or password in it' }
      const to = toAsciiUrl(url)
      return to === undefined ? { type: 'refused', reason: 'not a valid URL' } : { type: 'external', to }
    }
    case 'anchor':
      return { type: 'refused', reason: 'not a site path or an http(s) URL' }
    case 'unsafe':
      return { type: 'refused', reason: kind.reason }
  }
}
