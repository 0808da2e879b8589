/**
 * Validators of a served file and the conditional request headers that use them
 * (RFC 9110 section 13): `If-Match`, `If-Unmodified-Since`, `If-None-Match`, `If-Modified-Since`, `If-Range`.
 * The ETag is strong (`"size-mtime"`, hex) for the file's bytes as they are; an
 * answer compressed on the fly carries it weak (`W/"…"`), as nginx does, since its
 * bytes differ while the content is the same.
 */
export interface FileValidators {
  /** Strong ETag of the file as stored. */
  etag: string
  /** HTTP date of the file's modification time (whole seconds). */
  lastModified: string
}

const mtimeSeconds = (mtimeMs: number): number => Math.floor(mtimeMs / 1000)

// The three forms of an HTTP date (RFC 9110 section 5.6.7), all GMT: IMF-fixdate, RFC 850, asctime.
const IMF_FIXDATE_RE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/
const RFC850_DATE_RE = /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/
const ASCTIME_DATE_RE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/

/**
 * Milliseconds of an HTTP date, or NaN for any other value, which a recipient ignores (RFC 9110 section 13.1.3):
 * `Date.parse` alone reads `3000` as a year and an ISO date, and asctime in the server's own time zone.
 * Example: 'Sun Nov  6 08:49:37 1994' -> 784111777000; '1994-11-06' -> NaN.
 */
function parseHttpDate(value: string | null): number {
  if (value === null) return Number.NaN
  if (ASCTIME_DATE_RE.test(value)) return Date.parse(`${value} GMT`)
  return IMF_FIXDATE_RE.test(value) || RFC850_DATE_RE.test(value) ? Date.parse(value) : Number.NaN
}

export function validatorsOf(info: { size: number; mtimeMs: number }): FileValidators {
  return {
    etag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
    lastModified: new Date(mtimeSeconds(info.mtimeMs) * 1000).toUTCString(),
  }
}

/** `W/"x"` -> `"x"`: the weak comparison of RFC 9110 section 8.8.3.2 compares what is left. */
const opaqueTag = (tag: string): string => tag.trim().replace(/^W\//, '')

/**
 * True when the client's precondition fails and a 412 is the answer (RFC 9110 section 13.2.2, checked before
 * the others): `If-Match` (strong comparison with the file's ETag: a weak tag never matches, `*` matches any
 * file) decides when present, else `If-Unmodified-Since` (the file changed after that date).
 */
export function isPreconditionFailed(headers: Headers, etag: string, mtimeMs: number): boolean {
  const ifMatch = headers.get('if-match')
  if (ifMatch !== null) return ifMatch.trim() !== '*' && !ifMatch.split(',').some((tag) => tag.trim() === etag)
  const since = parseHttpDate(headers.get('if-unmodified-since'))
  return !Number.isNaN(since) && mtimeSeconds(mtimeMs) > Math.floor(since / 1000)
}

/**
 * True when the client's copy is current and a 304 is the answer: `If-None-Match`
 * (weak comparison, `*` matches any file) decides when present, else `If-Modified-Since`.
 */
export function isNotModified(headers: Headers, etag: string, mtimeMs: number): boolean {
  const ifNoneMatch = headers.get('if-none-match')
  if (ifNoneMatch !== null)
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => opaqueTag(tag) === opaqueTag(etag))
  const since = parseHttpDate(headers.get('if-modified-since'))
  return !Number.isNaN(since) && mtimeSeconds(mtimeMs) <= Math.floor(since / 1000)
}

/**
 * True when a `Range` may be honoured: no `If-Range`, or one that still holds, by
 * strong comparison of the ETag or the exact `Last-Modified` date. A weak ETag
 * never holds (RFC 9110 section 13.1.5); the whole file is sent instead.
 */
export function isIfRangeCurrent(headers: Headers, validators: FileValidators): boolean {
  const ifRange = headers.get('if-range')?.trim()
  if (ifRange === undefined) return true
  if (ifRange.startsWith('"') || ifRange.startsWith('W/')) return ifRange === validators.etag
  const date = parseHttpDate(ifRange)
  return !Number.isNaN(date) && date === Date.parse(validators.lastModified)
}
