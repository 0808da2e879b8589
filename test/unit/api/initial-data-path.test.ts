import { describe, expect, it } from 'vitest'
import { toInitialDataPath } from '../../../src/api/initial-data-path.js'

const i18n = { default: 'en', locales: ['en', 'pl', 'de'] }
const q = (s: string) => new URLSearchParams(s)

describe('initial data path forms', () => {
  it('path form without route query: locale prefix applied', () => {
    expect(toInitialDataPath({ endpoint: '/?type=834', locale: 'en', i18n })).toBe('/?type=834')
    expect(toInitialDataPath({ endpoint: '/?type=834', locale: 'pl', i18n, routePath: '/pl/o-nas' })).toBe(
      '/pl?type=834',
    )
    expect(toInitialDataPath({ endpoint: '/?type=834', locale: 'de', i18n })).toBe('/de?type=834')
  })
  it('query form: the current route path with endpoint params overriding', () => {
    expect(
      toInitialDataPath({
        endpoint: '?type=834',
        locale: 'pl',
        i18n,
        routePath: '/pl/o-nas/',
        routeQuery: q('type=1&a=b'),
      }),
    ).toBe('/pl/o-nas?type=834&a=b')
  })
  it("query form without a route (a build's one request a locale): the locale's home page", () => {
    expect(toInitialDataPath({ endpoint: '?type=834', locale: 'en', i18n })).toBe('/?type=834')
    expect(toInitialDataPath({ endpoint: '?type=834', locale: 'pl', i18n })).toBe('/pl?type=834')
    expect(toInitialDataPath({ endpoint: '?type=834', locale: 'de', i18n })).toBe('/de?type=834')
  })
  it('path form with Extbase controller arguments: route path and query as they are', () => {
    expect(
      toInitialDataPath({
        endpoint: '/?type=834',
        locale: 'en',
        i18n,
        routePath: '/news',
        routeQuery: q('tx_news_pi1[controller]=News&x=1'),
      }),
    ).toBe('/news?tx_news_pi1%5Bcontroller%5D=News&x=1')
  })
  it('path form with another route query: merged, route wins', () => {
    expect(
      toInitialDataPath({
        endpoint: '/?type=834&l=1',
        locale: 'pl',
        i18n,
        routePath: '/pl/x',
        routeQuery: q('l=2&y=3'),
      }),
    ).toBe('/pl?type=834&l=2&y=3')
  })
})
