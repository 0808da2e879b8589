/**
 * Pure: the checks a stored build state passes before any of it is used. The state is input like an
 * API answer (a CI cache or a download may have written it), so every entry is checked as the crawl
 * checks its input: page paths normalised and not reserved, redirects that could be written as they
 * are, file paths that stay inside the output. One bad entry and the whole state is refused.
 */
import { REDIRECT_STATUSES } from '../../shared/constants.js'
import { isContentHashedFile, isOutputFilePath } from '../../shared/layout.js'
import { checkRedirectTarget } from '../../shared/redirect-target.js'
import { normalizePagePath } from '../../shared/url.js'
import { isRecord } from '../../shared/values.js'
import { isReservedPath } from '../crawl/paths.js'
import type { StoredRedirect } from './store.js'

/** What a state is checked against: the site that reads it. */
export interface StoreCheckOptions {
  locales: readonly string[]
  /** The site's base URL, for redirect targets (see checkRedirectTarget). */
  baseUrl?: string
}

/** Longest identity string (engine, config digest, build id, client version). */
const MAX_ID_LENGTH = 200
// Whitespace and controls (C0, DEL, C1, and Unicode's line and paragraph separators): never in a stored path or URL.
const UNSAFE_CHAR_RE = /[\s\u0000-\u001f\u007f-\u009f]/u

export const isString = (v: unknown): v is string => typeof v === 'string'
const isId = (v: unknown): v is string =>
  isString(v) && v.length > 0 && v.length <= MAX_ID_LENGTH && !UNSAFE_CHAR_RE.test(v)
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0
const isUid = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0

/** A normalised page path that a page may have: not the name of a file the build writes. */
export const isStoredPagePath = (v: unknown, options: StoreCheckOptions): v is string => {
  if (!isString(v)) return false
  const normalized = normalizePagePath(v)
  return normalized.ok && normalized.path === v && !isReservedPath(v, options.locales)
}

/** A relative path of a file in the output (no `..`, no absolute path, no control character or line break). */
export const isStoredFilePath = (v: unknown): v is string => isString(v) && isOutputFilePath(v)

function isStoredRedirect(v: unknown, options: StoreCheckOptions): v is StoredRedirect {
  if (!isRecord(v) || !isStoredPagePath(v.from, options) || !isString(v.to) || UNSAFE_CHAR_RE.test(v.to)) return false
  if (!REDIRECT_STATUSES.has(v.statusCode as number) || !options.locales.includes(v.locale as string)) return false
  if (!(v.kind === 'api' ? v.uid === undefined : v.kind === 'slug' && isUid(v.uid))) return false
  // the target must be one the build would write as it is: checked, and already in its checked form
  const target = checkRedirectTarget(v.to, options.baseUrl, v.from)
  return target.type !== 'refused' && target.to === v.to
}

const isSiteUrl = (v: unknown): boolean =>
  isString(v) && v.startsWith('/') && !UNSAFE_CHAR_RE.test(v) && isStoredFilePath(v.slice(1))

const isStatus = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 400 && (v as number) <= 599

/**
 * Checks the first line of a state but its `files`, which parseStore checks with the disk. Counts
 * are checked against `maxPaths` here, before anything is allocated for them.
 */
export function isStoredHead(v: Record<string, unknown>, options: StoreCheckOptions & { maxPaths: number }): boolean {
  const { locales } = options
  return (
    isId(v.engine) &&
    isId(v.config) &&
    isId(v.id) &&
    isId(v.clientVersion) &&
    isRecord(v.locales) &&
    Object.entries(v.locales).every(([l, d]) => locales.includes(l) && isRecord(d) && isSiteUrl(d.initialDataUrl)) &&
    Array.isArray(v.redirects) &&
    v.redirects.length <= options.maxPaths &&
    v.redirects.every((r) => isStoredRedirect(r, options)) &&
    Array.isArray(v.notFound) &&
    v.notFound.length <= options.maxPaths &&
    v.notFound.every((n) => isRecord(n) && isStoredPagePath(n.path, options) && isStatus(n.status)) &&
    Array.isArray(v.builds) &&
    v.builds.every(
      (b) =>
        isRecord(b) &&
        isId(b.id) &&
        isId(b.clientVersion) &&
        Array.isArray(b.files) &&
        b.files.every((f) => isStoredFilePath(f) && isContentHashedFile(f)),
    ) &&
    isRecord(v.files) &&
    isCount(v.paths) &&
    isCount(v.pages) &&
    v.pages <= v.paths &&
    v.paths <= options.maxPaths
  )
}
