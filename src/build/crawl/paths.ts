/**
 * Pure: which links of API data the build crawls. Built on the one link classifier
 * (src/shared/links.ts), plus the one rule only a build has: a page may not take the name
 * of a file the build writes.
 */
import { type BuildIssueKind, buildIssues } from '../../errors.js'
import { NOT_FOUND_FILE, PAYLOAD_FILE, REDIRECTS_FILE, ROBOTS_FILE, SITEMAP_FILE } from '../../shared/layout.js'
import { classifyLink } from '../../shared/links.js'
import { pathSegments } from '../../shared/url.js'

/** What a link found in API data means to the crawler. */
export type CrawlTarget =
  | { type: 'page'; path: string }
  | { type: 'ignore' }
  | { type: 'refused'; kind: Extract<BuildIssueKind, 'UNSAFE_LINK' | 'RESERVED_PATH'>; reason: string }

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
const RESERVED_NAMES = [...RESERVED_ROOT_FILES]

/** True when a normalised page path would collide with a file the build writes (`/x/_payload.json`, `/sitemap.xml`). */
export function isReservedPath(path: string, locales: readonly string[]): boolean {
  // Every link of every page passes here: a path that names none of the files (and escapes nothing) is
  // told apart by substring tests, with no split into decoded segments.
  if (!path.includes('%') && !RESERVED_NAMES.some((name) => path.includes(name))) return false
  const segments = pathSegments(path)
  if (segments.some((s) => RESERVED_FILES.has(s))) return true
  const [first, second] = segments
  if (segments.length === 1 && RESERVED_ROOT_FILES.has(first!)) return true
  return segments.length === 2 && locales.includes(first!) && second === NOT_FOUND_FILE
}

// A first segment such as `c:` (normalised: `c%3A`) names a drive on Windows (the writer refuses it); a dot folder is one that
// static hosts (and `site serve`) do not serve, but for /.well-known/.
const DRIVE_RE = /^\/[a-z](?::|%3a)/i
const DOT_FOLDER_RE = /\/\.(?!well-known(?:\/|$))/

/** Why a page at this normalised path could not be published as a folder of the output; undefined when it can. */
function unwritablePageReason(path: string): string | undefined {
  if (DRIVE_RE.test(path)) return 'a path that starts as a drive letter (c:), which a file system reads as a drive'
  if (DOT_FOLDER_RE.test(path)) return 'a dot folder, which static hosts do not serve'
  return undefined
}

/**
 * Classifies a link for crawling. Pages of this site come back normalised; files, external,
 * `mailto:`, `tel:` and anchor links are ignored; hostile ones (`..`, encoded slashes, NUL,
 * over-long, `javascript:`) and paths that collide with the build's own files are refused with a reason.
 * Example: ('/pl/o-nas/', …) -> { type: 'page', path: '/pl/o-nas' }; ('/fileadmin/a.pdf', …) -> { type: 'ignore' }.
 */
export function toCrawlTarget(href: unknown, options: { baseUrl?: string; locales: readonly string[] }): CrawlTarget {
  if (typeof href !== 'string' || href.trim() === '') return { type: 'ignore' }
  const kind = classifyLink(href, options.baseUrl)
  switch (kind.type) {
    case 'page':
    case 'file': {
      if (isReservedPath(kind.path, options.locales)) return { type: 'refused', ...buildIssues.reservedPath() }
      if (kind.type === 'file') return { type: 'ignore' }
      const unwritable = unwritablePageReason(kind.path)
      return unwritable ? { type: 'refused', ...buildIssues.unsafeLink(unwritable) } : { type: 'page', path: kind.path }
    }
    case 'unsafe':
      return { type: 'refused', ...buildIssues.unsafeLink(kind.reason) }
    default:
      return { type: 'ignore' }
  }
}
