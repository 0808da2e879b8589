import { describe, expect, it } from 'vitest'
import { recheckAt } from '../../../src/api/freshness.js'

const NOW = Date.parse('2026-11-26T12:00:00Z')

describe('recheckAt', () => {
  it('reads max-age (s-maxage first) from now, and Expires as a duration from the answer Date', () => {
    expect(recheckAt({ 'cache-control': 'max-age=3600' }, NOW)).toBe(NOW + 3_600_000)
    expect(recheckAt({ 'cache-control': 'public, s-maxage=60, max-age=3600' }, NOW)).toBe(NOW + 60_000)
    expect(recheckAt({ 'cache-control': 'Max-Age="120"' }, NOW)).toBe(NOW + 120_000)
    // the CMS's clock is 10 minutes behind ours: its Expires counts from its Date
    const expires = { expires: 'Thu, 26 Nov 2026 11:55:00 GMT', date: 'Thu, 26 Nov 2026 11:50:00 GMT' }
    expect(recheckAt(expires, NOW)).toBe(NOW + 300_000)
    expect(recheckAt({ expires: 'Thu, 26 Nov 2026 12:05:00 GMT' }, NOW)).toBe(NOW + 300_000)
  })

  it('counts max-age from when a cache in front of the CMS took the answer (its Age header)', () => {
    // Varnish or a CDN answered from its cache, taken 50 minutes ago: the scheduled change is 10 minutes away
    expect(recheckAt({ 'cache-control': 'max-age=3600', age: '3000' }, NOW)).toBe(NOW + 600_000)
    // served stale (Varnish's grace, a CDN's stale-while-revalidate): the change is due, the cache asks TYPO3 again
    expect(recheckAt({ 'cache-control': 's-maxage=60', age: '60' }, NOW)).toBe(NOW + 60_000)
    expect(recheckAt({ 'cache-control': 'max-age=300', age: '3600' }, NOW)).toBe(NOW + 300_000)
    expect(recheckAt({ 'cache-control': 'max-age=60', age: 'soon' }, NOW)).toBe(NOW + 60_000)
  })

  it('takes the first of a repeated directive, as caches do (a proxy that adds its own Cache-Control after TYPO3)', () => {
    expect(recheckAt({ 'cache-control': 'max-age=5, public, max-age=3600' }, NOW)).toBe(NOW + 5_000)
  })

  it('gives no time for what must not be cached, a time past, a year away or a value it cannot read', () => {
    const cases: Array<Record<string, string>> = [
      {},
      { 'cache-control': 'no-store' },
      { 'cache-control': 'private, max-age=60' },
      { 'cache-control': 'no-cache, max-age=60' },
      { 'cache-control': 'max-age=0' },
      { 'cache-control': 'max-age=-5' },
      { 'cache-control': 'max-age=1e3' },
      { 'cache-control': `max-age=${400 * 24 * 3600}` },
      { expires: '0' },
      { expires: 'Thu, 26 Nov 2026 11:00:00 GMT' },
    ]
    for (const headers of cases) expect(recheckAt(headers, NOW), JSON.stringify(headers)).toBeUndefined()
  })
})
