/**
 * Pure: when a page answer says it should be asked again. TYPO3 with `config.sendCacheHeaders` sends
 * `Cache-Control: max-age=N` (and `Expires`) on a cacheable page, N shortened to the next start or stop time
 * of the records on the page: a scheduled change. `site publish` re-checks such a page at that time.
 *
 * - `no-store`, `no-cache` or `private` (TYPO3 on a page that must not be cached): no time.
 * - `s-maxage`, else `max-age`, counted from now (the answer has just arrived), less the `Age` a cache in front
 *   of the CMS gives it (an answer it served stale: max-age from now); 0 is no time.
 * - Else `Expires`, as a duration from the answer's `Date` (the CMS's clock, not ours).
 * - Beyond a year, or unreadable: no time.
 *
 * Example: ({ 'cache-control': 'max-age=3600' }, now) -> now + 3,600,000.
 */

import { MAX_RECHECK_MS } from '../shared/constants.js'

export function recheckAt(headers: Readonly<Record<string, string>>, now: number): number | undefined {
  const cacheControl = (headers['cache-control'] ?? '').toLowerCase()
  const directives = new Map<string, string>()
  for (const part of cacheControl.split(',')) {
    const [name = '', value = ''] = part.trim().split('=', 2)
    // a repeated directive (two Cache-Control headers, joined): the first, as caches take it
    if (name && !directives.has(name)) directives.set(name, value.replace(/^"|"$/g, ''))
  }
  if (directives.has('no-store') || directives.has('no-cache') || directives.has('private')) return undefined
  const maxAge = directives.get('s-maxage') ?? directives.get('max-age')
  if (maxAge !== undefined) {
    if (!/^\d{1,10}$/.test(maxAge)) return undefined
    // a cache in front of the CMS (Varnish, a CDN) says in `Age` how long ago it took the answer; one it served stale
    // (its grace) is of before the change, which is due: asked again after max-age, as the cache will have asked by then
    const age = /^\d{1,10}$/.test(headers.age ?? '') ? Number(headers.age) : 0
    const fresh = Number(maxAge) - age
    return within((fresh > 0 ? fresh : Number(maxAge)) * 1000, now)
  }
  const expires = headers.expires
  if (expires === undefined) return undefined
  const at = Date.parse(expires)
  const date = headers.date === undefined ? Number.NaN : Date.parse(headers.date)
  if (Number.isNaN(at)) return undefined
  return within(at - (Number.isNaN(date) ? now : date), now)
}

const within = (ms: number, now: number): number | undefined => (ms > 0 && ms <= MAX_RECHECK_MS ? now + ms : undefined)
