/**
 * The one link classifier: what a link from API data (or an anchor on a page) is to this
 * site. The crawler, the client router, SafeLink, the head's absolute URLs, the sitemap and
 * both redirect paths (src/shared/redirect-target.ts) all ask here, so that a link one of
 * them takes for a page is a page to all of them. No `node:` imports, no DOM globals.
 */

import { MEDIA_DIR } from './layout.js'
import { LONE_SURROGATE_RE, normalizePagePath } from './url.js'

/**
 * - `page`: a path of this site that a page may live at (normalised, see normalizePagePath);
 * - `file`: a path of this site that is a file (`/fileadmin/a.pdf`, `/logo.svg`): linked, never crawled or routed;
 * - `external`: another origin, `mailto:`, `tel:`, or a relative reference without a leading `/`;
 * - `anchor`: `#section` of the current page;
 * - `unsafe`: never a link (a script URL, `..`, an encoded slash, a backslash before the query, malformed text), with the reason.
 */
export type LinkKind =
  | { type: 'page'; path: string; search: string; hash: string }
  | { type: 'file'; path: string; search: string; hash: string }
  | { type: 'external' }
  | { type: 'anchor' }
  | { type: 'unsafe'; reason: string }

/** A `page` or `file` link: a path of this site. */
export type SiteLink = Extract<LinkKind, { type: 'page' | 'file' }>

export const isSiteLink = (kind: LinkKind): kind is SiteLink => kind.type === 'page' || kind.type === 'file'

const SCHEME_RE = /^[a-z][a-z0-9+.-]*:/i
const SAFE_SCHEME_RE = /^(https?|mailto|tel):/i
// A backslash before the query: a browser reads it as a slash in a relative or http(s) URL (`\\evil.example` is `//evil.example`).
const BACKSLASH_BEFORE_QUERY_RE = /^[^?#]*\\/

/** A backslash a browser reads as a slash: `/\evil.example` leads to another host than its text shows. */
const hasPathBackslash = (href: string): boolean =>
  BACKSLASH_BEFORE_QUERY_RE.test(href) && (!SCHEME_RE.test(href) || /^https?:/i.test(href))

/** True for hrefs that are safe to render as links: http(s), mailto, tel, relative, anchors. */
export function isSafeHref(href: unknown): href is string {
  if (typeof href !== 'string' || href.trim() === '') return false
  const trimmed = href.replace(/[\u0000-\u0020]/g, '')
  return !SCHEME_RE.test(trimmed) || SAFE_SCHEME_RE.test(trimmed)
}

/**
 * True for a link of CMS content (a link field, rich text) safe to render: isSafeHref's, with no backslash a
 * browser reads as a slash. Content is checked so at the build (and in preview): the browser's code need not.
 */
export const isSafeContentHref = (href: unknown): href is string => isSafeHref(href) && !hasPathBackslash(href)

/** True for a redirect target that is absolute (`https://…` or protocol-relative): an external navigation. */
export const isAbsoluteUrl = (url: string): boolean => SCHEME_RE.test(url) || url.startsWith('//')

/** Extensions of files a site links to (documents, images, media, archives, fonts, data); `.html` pages stay pages. */
const FILE_EXTENSIONS = new Set(
  (
    'pdf doc docx dot xls xlsx ppt pptx pps odt ods odp rtf txt csv tsv xml json ics vcf epub ' +
    'zip gz tgz bz2 xz rar 7z tar jpg jpeg png gif webp avif svg ico bmp tif tiff heic ' +
    'mp3 mp4 m4a m4v webm ogg oga ogv wav flac mov avi mkv woff woff2 ttf otf eot js mjs css map ' +
    'apk dmg exe msi pkg'
  ).split(' '),
)
/** TYPO3's file storages and asset folders: what lies below them is a file, whatever its name. */
const FILE_ROOTS = new Set(['fileadmin', 'typo3temp', 'typo3conf', 'uploads', '_assets'])

/**
 * True when a normalised path names a file rather than a page: its first segment is a file
 * storage of TYPO3, or its last segment ends in a known file extension.
 * Example: `/fileadmin/a` -> true, `/docs/report.PDF` -> true, `/news/version-2.0` -> false.
 */
export function isFilePath(path: string): boolean {
  const first = path.slice(1).split('/', 1)[0] ?? ''
  if (FILE_ROOTS.has(first)) return true
  const last = path.slice(path.lastIndexOf('/') + 1)
  const dot = last.lastIndexOf('.')
  return dot > 0 && FILE_EXTENSIONS.has(last.slice(dot + 1).toLowerCase())
}

/** A file of the build's media folder, as the build names it: `/_site/media/<hash>/<name>`. */
const MEDIA_FILE_RE = new RegExp(`^/${MEDIA_DIR}/[0-9a-f]{20}/[A-Za-z0-9][A-Za-z0-9._-]*$`)

const unsafe = (reason: string): LinkKind => ({ type: 'unsafe', reason })

/**
 * Classifies a link. Site links are relative paths or absolute URLs on `baseUrl`'s origin,
 * and come back normalised with their query and hash.
 * Example: ('https://www.example.com/pl/o-nas/?a=1', 'https://www.example.com') -> page `/pl/o-nas`, search `?a=1`.
 */
export function classifyLink(href: unknown, baseUrl?: string): LinkKind {
  if (typeof href !== 'string') return unsafe('not a string')
  if (href.trim() === '') return unsafe('empty link')
  if (LONE_SURROGATE_RE.test(href)) return unsafe('malformed text (a lone UTF-16 surrogate)')
  if (hasPathBackslash(href)) return unsafe('control character or backslash')
  if (!isSafeHref(href)) return unsafe('unsafe URL scheme')
  if (href.startsWith('#')) return { type: 'anchor' }
  let rest = href
  if (SCHEME_RE.test(href) || href.startsWith('//')) {
    if (!/^https?:/i.test(href) && !href.startsWith('//')) return { type: 'external' }
    // read as a browser reads it, with or without baseUrl: one it cannot read is no link on any site
    let url: URL
    try {
      url = new URL(href, baseUrl ?? 'https://site.invalid')
    } catch {
      return unsafe('not a valid URL')
    }
    if (!baseUrl || url.origin !== new URL(baseUrl).origin) return { type: 'external' }
    rest = url.pathname + url.search + url.hash
  }
  if (!rest.startsWith('/')) return { type: 'external' }
  const hashAt = rest.indexOf('#')
  const hash = hashAt >= 0 ? rest.slice(hashAt) : ''
  const beforeHash = hashAt >= 0 ? rest.slice(0, hashAt) : rest
  const queryAt = beforeHash.indexOf('?')
  const search = queryAt >= 0 ? beforeHash.slice(queryAt) : ''
  const pathPart = queryAt >= 0 ? beforeHash.slice(0, queryAt) : beforeHash
  // a CMS file the build took into its output: the one kind of engine path content may link to
  if (MEDIA_FILE_RE.test(pathPart)) return { type: 'file', path: pathPart, search, hash }
  const checked = normalizePagePath(pathPart)
  if (!checked.ok) return unsafe(checked.reason)
  return { type: isFilePath(checked.path) ? 'file' : 'page', path: checked.path, search, hash }
}
