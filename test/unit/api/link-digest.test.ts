import { describe, expect, it } from 'vitest'
import { linkDigest } from '../../../src/api/link-digest.js'

const page = { id: 3, meta: { title: 'Team' }, content: { colPos0: [] } }

describe('linkDigest', () => {
  it('leaves out the content elements', () => {
    expect(linkDigest({ ...page, content: { colPos0: [{ id: 1 }] } })).toBe(linkDigest(page))
    expect(linkDigest({ ...page, meta: { title: 'Our team' } })).not.toBe(linkDigest(page))
  })

  it('takes a page nested some thousand levels deep, as every Node.js release parses it, by what no page shows', () => {
    // JSON.stringify overflows the stack at such a depth on Node.js 20 to 24, not on 26: what is deeper than a
    // page can show (preparation drops it) must not decide whether a page builds
    const nested = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) as unknown
    expect(linkDigest({ ...page, zzz: nested(20_000) })).toBe(linkDigest({ ...page, zzz: nested(10_000) }))
    expect(linkDigest({ ...page, zzz: nested(20_000) })).not.toBe(linkDigest(page))
  })
})
