import { describe, expect, it } from 'vitest'
import { parseRange, type RangeRequest } from '../../../src/serve/range.js'

describe('parseRange (size 100)', () => {
  const cases: Array<[string | null, RangeRequest]> = [
    [null, { type: 'none' }],
    ['bytes=0-9', { type: 'range', start: 0, end: 9 }],
    ['bytes=90-', { type: 'range', start: 90, end: 99 }],
    ['bytes=-10', { type: 'range', start: 90, end: 99 }],
    ['bytes=-500', { type: 'range', start: 0, end: 99 }],
    ['bytes=50-5000', { type: 'range', start: 50, end: 99 }],
    ['BYTES=1-1', { type: 'range', start: 1, end: 1 }],
    ['bytes= 3-4 ', { type: 'range', start: 3, end: 4 }],
    ['bytes=99-99', { type: 'range', start: 99, end: 99 }],
    ['bytes=100-', { type: 'unsatisfiable' }],
    ['bytes=100-200', { type: 'unsatisfiable' }],
    ['bytes=-0', { type: 'unsatisfiable' }],
    ['bytes=5-2', { type: 'none' }],
    ['bytes=-', { type: 'none' }],
    ['bytes=0-1,3-4', { type: 'none' }],
    ['items=0-1', { type: 'none' }],
    ['bytes=0x1-2', { type: 'none' }],
    ['bytes=1.5-2', { type: 'none' }],
  ]
  it.each(cases)('%s', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected)
  })

  it('finds nothing to send in an empty file', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ type: 'unsatisfiable' })
    expect(parseRange('bytes=-1', 0)).toEqual({ type: 'unsatisfiable' })
  })
})
