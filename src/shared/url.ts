/**
 * Pure path rules shared by build, preview and the browser client
 * (no `node:` imports, no DOM globals). One normalisation policy for files,
 * links, sitemap and canonical: leading slash, no trailing slash (but `/`),
 * no empty segments, percent-encoding canonical (UTF-8, upper-case hex),
 * case kept as the API gives it.
 */
import { MAX_PATH_LENGTH, MAX_SEGMENT_BYTES } from './client-constants.js'
import { PAYLOAD_FILE, SITE_DIR } from './layout.js'

export interface LocaleOptions {
  readonly default: string
  readonly locales: readonly string[]
}

// Control characters, backslash: never part of a page path.
const FORBIDDEN_CHAR_RE = /[\u0000-\u001f\u007f\\]/
/** A UTF-16 surrogate without its pair: valid in JSON, not encodable as a URL or a file name. */
export const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Locale of a path: its first segment when that is a configured locale, else the default. */
export function getLocaleFromPath(path: string, i18n: LocaleOptions): string {
  const first = path.split(/[/?#]/)[1] ?? ''
  return i18n.locales.includes(first) && first !== i18n.default ? first : i18n.default
}

/** Removes the locale prefix: `/pl/o-nas` -> `/o-nas`, `/pl` -> `/`. */
export function stripLocale(path: string, i18n: LocaleOptions): string {
  const locale = getLocaleFromPath(path, i18n)
  if (locale === i18n.default) return path
  const rest = path.slice(locale.length + 1)
  return rest === '' || rest.startsWith('?') || rest.startsWith('#') ? `/${rest}` : rest
}

/** Adds a locale prefix for non-default locales: (`/o-nas`, pl) -> `/pl/o-nas`; (`/`, pl) -> `/pl`. */
export function withLocale(path: string, locale: string, i18n: LocaleOptions): string {
  const clean = `/${path}`.replace(/\/{2,}/g, '/')
  if (locale === i18n.default) return clean
  return clean === '/' ? `/${locale}` : `/${locale}${clean}`.replace(/\/(?=[?#]|$)/, '')
}

/** Home path of a locale: `/`, `/pl`, `/de`. */
export const localeHome = (locale: string, i18n: LocaleOptions): string => withLocale('/', locale, i18n)

export type PathCheck = { ok: true; path: string } | { ok: false; reason: string }

/** One decoded path segment in the form normalised paths carry it: `über` -> `%C3%BCber`, `a+b` -> `a%2Bb`. */
export const encodeSegment = (segment: string): string =>
  encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)

/** UTF-8 byte length without allocating (lone surrogates are refused before this is asked). */
function utf8Length(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

// Segments made only of these characters decode and encode to themselves: the common case, checked once.
const PLAIN_SEGMENT_RE = /^[A-Za-z0-9._~-]+$/
// A whole path of such segments (none `.` or `..`, none longer than the limit): normalised as it is.
const PLAIN_PATH_RE = new RegExp(`^(?:/(?!\\.\\.?(?:/|$))[A-Za-z0-9._~-]{1,${MAX_SEGMENT_BYTES}})+$`)

/**
 * Validates and normalises a page path (no query, no hash). Everything a file
 * name or a link is made from passes here first.
 * Example: `/de/%c3%bcber-uns/` -> `{ ok: true, path: '/de/%C3%BCber-uns' }`.
 */
export function normalizePagePath(input: unknown): PathCheck {
  if (typeof input !== 'string') return { ok: false, reason: 'not a string' }
  if (!input.startsWith('/') || input.startsWith('//')) return { ok: false, reason: 'not a site path' }
  if (input.length > MAX_PATH_LENGTH) return { ok: false, reason: `longer than ${MAX_PATH_LENGTH} characters` }
  // every link of every page passes here: the common plain path costs one test, no split and join
  if (PLAIN_PATH_RE.test(input) && !input.startsWith(`/${SITE_DIR}`)) return { ok: true, path: input }
  if (/%2f|%5c|%00/i.test(input)) return { ok: false, reason: 'encoded slash or NUL' }
  const segments: string[] = []
  const encoded: string[] = []
  for (const raw of input.split('/')) {
    if (raw === '') continue
    if (PLAIN_SEGMENT_RE.test(raw) && raw.length <= MAX_SEGMENT_BYTES) {
      if (raw === '.' || raw === '..') return { ok: false, reason: 'dot segment' }
      segments.push(raw)
      encoded.push(raw)
      continue
    }
    let segment: string
    try {
      segment = decodeURIComponent(raw)
    } catch {
      return { ok: false, reason: 'malformed percent-encoding' }
    }
    if (segment === '.' || segment === '..') return { ok: false, reason: 'dot segment' }
    if (FORBIDDEN_CHAR_RE.test(segment)) return { ok: false, reason: 'control character or backslash' }
    if (LONE_SURROGATE_RE.test(segment)) return { ok: false, reason: 'unpaired UTF-16 surrogate' }
    if (utf8Length(segment) > MAX_SEGMENT_BYTES)
      return { ok: false, reason: `segment longer than ${MAX_SEGMENT_BYTES} bytes` }
    segments.push(segment)
    encoded.push(encodeSegment(segment))
  }
  if (segments[0] === SITE_DIR) return { ok: false, reason: 'internal path' }
  const path = `/${encoded.join('/')}`
  // the same limit on the form links, payload URLs and the router carry: else `/ż…` passes and `/%C5%BC…` does not
  if (path.length > MAX_PATH_LENGTH) return { ok: false, reason: `longer than ${MAX_PATH_LENGTH} characters` }
  return { ok: true, path }
}

/** Decoded segments of a normalised path, for file names: `/de/%C3%BCber-uns` -> ['de', 'über-uns']. */
export const pathSegments = (normalized: string): string[] =>
  normalized
    .split('/')
    .filter(Boolean)
    .map((s) => decodeURIComponent(s))

/** The file `name` in a page's folder: its decoded segments (a plain path's are the path as it is). */
const pageFile = (normalized: string, name: string): string =>
  normalized === '/'
    ? name
    : PLAIN_PATH_RE.test(normalized)
      ? `${normalized.slice(1)}/${name}`
      : [...pathSegments(normalized), name].join('/')

/** Output file of a page, relative to the output folder: `/a/b` -> `a/b/index.html`. */
export const toHtmlFile = (normalized: string): string => pageFile(normalized, 'index.html')

/** Payload file of a page, relative to the output folder: `/a/b` -> `a/b/_payload.json`. */
export const toPayloadFile = (normalized: string): string => pageFile(normalized, PAYLOAD_FILE)

/** URL of a page's payload: `/a/b` -> `/a/b/_payload.json`, `/` -> `/_payload.json`. */
export const toPayloadUrl = (normalized: string): string => `${normalized === '/' ? '' : normalized}/${PAYLOAD_FILE}`

/** Page path of a payload URL: `/a/b/_payload.json` -> `/a/b`; undefined when it is not one. */
export function fromPayloadUrl(pathname: string): string | undefined {
  if (!pathname.endsWith(`/${PAYLOAD_FILE}`)) return undefined
  return pathname.slice(0, -PAYLOAD_FILE.length - 1) || '/'
}

/**
 * The URL of a site path: absolute on `baseUrl` when the site has one, root-relative otherwise. ('/pl', 'https://x.com') -> 'https://x.com/pl'; ('/', 'https://x.com') -> 'https://x.com/'.
 */
export const toSiteUrl = (path: string, baseUrl: string | undefined): string =>
  baseUrl ? `${baseUrl.endsWith('/') ? baseUrl.replace(/\/+$/, '') : baseUrl}${path}` : path
