import { describe, expect, it } from 'vitest'
import { filterQuery, requestUrl } from '../../../src/api/query.js'

describe('filterQuery (api.allowQuery)', () => {
  it('passes everything with true', () => expect(filterQuery('/a?x=1&type=2', true)).toBe('/a?x=1&type=2'))
  it('drops every parameter but type when false', () => {
    expect(filterQuery('/a?x=1&type=2', false)).toBe('/a?type=2')
    expect(filterQuery('/a?x=1', false)).toBe('/a')
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

describe('requestUrl', () => {
  it('appends the path to a base URL without a query, as it is', () => {
    expect(requestUrl('https://cms.example.com/api', '/pl?type=834')).toBe('https://cms.example.com/api/pl?type=834')
    expect(requestUrl('https://cms.example.com', '/')).toBe('https://cms.example.com/')
  })
  it("keeps the base URL's query ahead of the path's", () => {
    expect(requestUrl('https://cms.example.com/api?key=k', '/pl?type=834')).toBe(
      'https://cms.example.com/api/pl?key=k&type=834',
    )
    expect(requestUrl('https://cms.example.com/?key=k&L=1', '/about-us')).toBe(
      'https://cms.example.com/about-us?key=k&L=1',
    )
    expect(requestUrl('https://cms.example.com/?key=k', '/?type=834')).toBe('https://cms.example.com/?key=k&type=834')
  })
})
