/**
 * The `_redirects` file a build writes for static hosts: one rule a line,
 * `from to [status[!]]` (301, 302, 303, 307 or 308; 301 when left out), `#` comments. A `from` ending
 * in `/*` matches everything below it and `:splat` in `to` takes the rest; a `:name` segment of `from` matches
 * any one segment, which `:name` in `to` takes (as on Netlify and Cloudflare Pages). A `!`
 * forces the rule over an existing file (Netlify); rules come before files here
 * anyway, as on Cloudflare Pages, so forced or not, a rule answers.
 * Example: `/old /new 301`, `/old /new 301!`, `/blog/* /news/:splat 302`, `/news/:year/:slug /blog/:slug`. Non-ASCII in a rule is read
 * percent-encoded: `/stare-usługi` matches the request `/stare-us%C5%82ugi`. Paths are compared as the files they
 * name are found, escapes decoded: the request `/stare-us%c5%82ugi` (lower-case hex) matches too.
 */
import { REDIRECT_STATUSES } from '../shared/constants.js'
import { encodeSegment } from '../shared/url.js'

export interface RedirectRule {
  from: string
  to: string
  status: number
  /** Written `301!`: applied even where a file exists at `from`. */
  force: boolean
}

const STATUS_RE = /^(\d{3})(!?)$/

const trimSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path)

// What a URL never carries raw: non-ASCII and control characters. A hand-written rule may hold them.
const NOT_ASCII_RE = /[^\u0021-\u007e]/gu

/**
 * A rule's path or target in the form a request's path and a `Location` header carry it (UTF-8 percent-encoded,
 * as Cloudflare Pages reads the file); escapes already made are kept. Example: `/über` -> `/%C3%BCber`.
 */
const toAsciiForm = (value: string): string => value.replace(NOT_ASCII_RE, (c) => encodeURIComponent(c))

/** A segment in the one form normalised paths carry it: `%c5%bc`, `ż` and `%C5%BC` -> `%C5%BC`; malformed kept. */
function canonicalSegment(segment: string): string {
  try {
    return encodeSegment(decodeURIComponent(segment))
  } catch {
    return segment
  }
}

/** A rule's `from` in that form, but for its `:name` placeholders and `*`. Example: `/a+b/:x/*` -> `/a%2Bb/:x/*`. */
const canonicalFrom = (from: string): string =>
  from
    .split('/')
    .map((s) => (s.startsWith(':') || s === '*' ? s : canonicalSegment(s)))
    .join('/')

export function parseRedirects(text: string): RedirectRule[] {
  const rules: RedirectRule[] = []
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim()
    if (trimmed === '' || trimmed.startsWith('#')) continue
    const [rawFrom, rawTo, code] = trimmed.split(/\s+/)
    if (!rawFrom?.startsWith('/') || !rawTo) continue
    const from = canonicalFrom(toAsciiForm(rawFrom))
    const to = toAsciiForm(rawTo)
    const parsed = code === undefined ? ['301', '301', ''] : STATUS_RE.exec(code)
    const status = Number(parsed?.[1])
    // a status the hosts do not redirect with (304, 300) would not be followed by any browser
    if (!parsed || !REDIRECT_STATUSES.has(status)) continue
    rules.push({ from: from.endsWith('/*') ? from : trimSlash(from), to, status, force: parsed[2] === '!' })
  }
  return rules
}

/**
 * What a rule's `from` takes from a request's path, or undefined when it does not match: `:name` segments by name,
 * and the rest below a last `*` as `splat`. Example: ('/news/:year/*', '/news/2024/a/b') -> year 2024, splat a/b.
 */
function matchFrom(from: string, path: string, segments: readonly string[]): Map<string, string> | undefined {
  if (!from.includes(':') && !from.endsWith('/*')) return from === path ? new Map() : undefined
  const wanted = from.split('/')
  const values = new Map<string, string>()
  for (const [i, want] of wanted.entries()) {
    if (want === '*' && i === wanted.length - 1) {
      // without the slashes a request may start it with: `/x//evil.com` through `/x/* /:splat` is `/evil.com`,
      // never `//evil.com`, which a browser reads as another host
      values.set('splat', segments.slice(i).join('/').replace(/^\/+/, ''))
      return values
    }
    const segment = segments[i]
    if (segment === undefined) return undefined
    if (want.length > 1 && want.startsWith(':')) {
      if (segment === '') return undefined
      values.set(want.slice(1), segment)
    } else if (want !== segment) return undefined
  }
  return segments.length === wanted.length ? values : undefined
}

const PLACEHOLDER_RE = /:([A-Za-z_]\w*)/g

/** The first rule matching a request path, with its target filled in. */
export function matchRedirect(
  rules: readonly RedirectRule[],
  pathname: string,
): { to: string; status: number } | undefined {
  const segments = trimSlash(pathname).split('/').map(canonicalSegment)
  const path = segments.join('/')
  for (const rule of rules) {
    const values = matchFrom(rule.from, path, segments)
    if (values)
      return {
        to: rule.to.replace(PLACEHOLDER_RE, (written, name) => values.get(name) ?? written),
        status: rule.status,
      }
  }
  return undefined
}

/**
 * A redirect's `Location`: its target with the request's query (`search`, `?…` or empty) when the target has
 * none of its own, as Netlify and Cloudflare Pages pass it on (`/old?utm_source=x` -> `/new?utm_source=x`).
 * Example: ('/new#top', '?a=1') -> '/new?a=1#top'; ('/new?b=2', '?a=1') -> '/new?b=2'.
 */
export function withRequestQuery(to: string, search: string): string {
  const hashAt = to.indexOf('#')
  const beforeHash = hashAt < 0 ? to : to.slice(0, hashAt)
  if (search === '' || beforeHash.includes('?')) return to
  return `${beforeHash}${search}${to.slice(beforeHash.length)}`
}
