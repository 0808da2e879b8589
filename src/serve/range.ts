/**
 * What a `Range` header asks of a file of `size` bytes (RFC 9110 section 14.1.2).
 * One range is served; a header that is not a single `bytes=` range (several
 * ranges, another unit, `5-2`) is ignored and the whole file sent, as RFC 9110
 * allows. `end` is inclusive, as in `Content-Range`.
 * Examples (size 100): `bytes=0-9` -> 0..9; `bytes=90-` -> 90..99; `bytes=-10` -> 90..99;
 * `bytes=100-` -> unsatisfiable; `bytes=0-1,5-6` -> none.
 */
export type RangeRequest = { type: 'none' } | { type: 'range'; start: number; end: number } | { type: 'unsatisfiable' }

const SINGLE_RANGE_RE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i

export function parseRange(header: string | null, size: number): RangeRequest {
  const match = header === null ? null : SINGLE_RANGE_RE.exec(header)
  if (!match) return { type: 'none' }
  const [, first = '', last = ''] = match
  if (first === '') {
    // Suffix range: the last N bytes.
    if (last === '') return { type: 'none' }
    const length = Number(last)
    if (length === 0 || size === 0) return { type: 'unsatisfiable' }
    return { type: 'range', start: Math.max(0, size - length), end: size - 1 }
  }
  const start = Number(first)
  if (last !== '' && Number(last) < start) return { type: 'none' }
  if (start >= size) return { type: 'unsatisfiable' }
  return { type: 'range', start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) }
}
