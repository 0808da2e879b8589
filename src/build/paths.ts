/**
 * Pure rules for the paths a build crawls and the redirect targets it writes.
 * Built on the shared normalisation (src/shared/url.ts), so that files, links,
 * sitemap and canonical all use one policy.
 */
import { NOT_FOUND_FILE, PAYLOAD_FILE, REDIRECTS_FILE, ROBOTS_FILE, SITEMAP_FILE } from '../shared/layout.js'
import { classifyLink, isSafeHref, type LinkKind, normalizePagePath, pathSegments } from '../shared/url.js'

/** What a link found in API data means to the crawler. */
export type CrawlTarget = { type: 'page'; path: string } | { type: 'ignore' } | { type: 'refused'; reason: string }

/** File names the build writes itself; a page path using one would collide with them. */
const RESERVED_ROOT_FILES = new Set([
  NOT_FOUND_FILE,
  SITEMAP_FILE,
  ROBOTS_FILE,
  REDIRECTS_FILE,
  'index.html',
  PAYLOAD_FILE,
])
const RESERVED_FILES = new Set(['index.html', PAYLOAD_FILE])

/** True when a normalised page path would collide with a file the build writes (`/x/_payload.json`, `/sitemap.xml`). */
export function isReservedPath(path: string, locales: readonly string[]): boolean {
  const segments = pathSegments(path)
  if (segments.some((s) => RESERVED_FILES.has(s))) return true
  const [first, second] = segments
  if (segments.length === 1 && RESERVED_ROOT_FILES.has(first!)) return true
  return segments.length === 2 && locales.includes(first!) && second === NOT_FOUND_FILE
}

/** A lone UTF-16 surrogate (valid in JSON, not in a URL: encodeURIComponent throws on it). */
const LONE_SURROGATE_RE = /\p{Surrogate}/u

/** `classifyLink` that also refuses text no URL can hold. */
export const classifyHref = (href: unknown, baseUrl?: string): LinkKind | { type: 'malformed' } =>
  typeof href === 'string' && LONE_SURROGATE_RE.test(href) ? { type: 'malformed' } : classifyLink(href, baseUrl)

const pathnameOf = (href: string): string => {
  const cut = href.search(/[?#]/)
  return cut >= 0 ? href.slice(0, cut) : href
}

/**
 * Classifies a link for crawling. Same-site paths come back normalised;
 * external, `mailto:`, `tel:` and anchor links are ignored; hostile ones
 * (`..`, encoded slashes, NUL, over-long, `javascript:`) are refused with a reason.
 * Example: ('/pl/o-nas/', undefined) -> { type: 'page', path: '/pl/o-nas' }.
 */
export function toCrawlTarget(href: unknown, options: { baseUrl?: string; locales: readonly string[] }): CrawlTarget {
  if (typeof href !== 'string' || href.trim() === '') return { type: 'ignore' }
  const kind = classifyHref(href, options.baseUrl)
  if (kind.type === 'malformed') return { type: 'refused', reason: 'malformed text (a lone UTF-16 surrogate)' }
  if (kind.type === 'internal')
    return isReservedPath(kind.path, options.locales)
      ? { type: 'refused', reason: 'collides with a file the build writes' }
      : { type: 'page', path: kind.path }
  if (kind.type !== 'unsafe') return { type: 'ignore' }
  if (!isSafeHref(href)) return { type: 'refused', reason: 'unsafe URL scheme' }
  const checked = normalizePagePath(pathnameOf(href.startsWith('/') ? href : safePathname(href)))
  return { type: 'refused', reason: checked.ok ? 'not a valid URL' : checked.reason }
}

const safePathname = (href: string): string => {
  try {
    return new URL(href).pathname
  } catch {
    return href
  }
}

/** Where a redirect goes: an internal (normalised) path, an external http(s) URL, or refused. */
export type RedirectTarget =
  | { type: 'internal'; path: string; to: string }
  | { type: 'external'; to: string }
  | { type: 'refused'; reason: string }

/**
 * Checks a redirect target. Internal targets are normalised (query and hash
 * kept); external ones must be http(s) (or protocol-relative).
 * Example: ('/pl/o-nas/?a=1') -> { type: 'internal', path: '/pl/o-nas', to: '/pl/o-nas?a=1' }.
 */
export function checkRedirectTarget(
  url: unknown,
  options: { baseUrl?: string; locales: readonly string[] },
): RedirectTarget {
  if (typeof url !== 'string' || url.trim() === '') return { type: 'refused', reason: 'empty redirect target' }
  const kind = classifyHref(url, options.baseUrl)
  if (kind.type === 'internal')
    return { type: 'internal', path: kind.path, to: `${kind.path}${kind.search}${kind.hash}` }
  if (kind.type === 'external' && /^(https?:)?\/\/[^/\s]/i.test(url) && !/[\s<>"'`\\]/.test(url))
    return { type: 'external', to: url }
  const crawl = toCrawlTarget(url, options)
  return { type: 'refused', reason: crawl.type === 'refused' ? crawl.reason : 'not a site path or an http(s) URL' }
}
