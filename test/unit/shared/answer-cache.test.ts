import { describe, expect, it } from 'vitest'
import { AnswerCache } from '../../../src/shared/answer-cache.js'

describe('AnswerCache', () => {
  it('gives back the answer it was given, frozen, and starts over when full', () => {
    const cache = new AnswerCache<string, { n: number }>(2)
    expect(cache.get('a')).toBeUndefined()
    const a = cache.add('a', { n: 1 })
    expect(Object.isFrozen(a)).toBe(true)
    expect(cache.get('a')).toBe(a)
    cache.add('b', { n: 2 })
    // full: the third answer empties it first
    cache.add('c', { n: 3 })
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, undefined, { n: 3 }])
  })
})
