import { describe, expect, it } from 'vitest'
import { filterQuery } from '../../../src/api/query.js'

describe('filterQuery (contract 3.1)', () => {
  it('passes everything with true', () => expect(filterQuery('/a?x=1&type=2', true)).toBe('/a?x=1&type=2'))
  it('drops every parameter when falsy', () => {
    expect(filterQuery('/a?x=1&type=2', false)).toBe('/a')
    expect(filterQuery('/a', false)).toBe('/a')
  })
  it('keeps listed parameters and type', () => {
    expect(filterQuery('/a?utm_source=x&cHash=abc&type=834', ['cHash'])).toBe('/a?cHash=abc&type=834')
    expect(filterQuery('/a?utm_source=x', ['cHash'])).toBe('/a')
    expect(filterQuery('/a?type=1', [])).toBe('/a?type=1')
  })
  it('keeps bracketed extension arguments when listed', () => {
    expect(filterQuery('/news?tx_news_pi1%5Bnews%5D=7&x=1', ['tx_news_pi1[news]'])).toBe(
      '/news?tx_news_pi1%5Bnews%5D=7',
    )
  })
})
