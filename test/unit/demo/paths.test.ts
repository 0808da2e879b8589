import { describe, expect, it } from 'vitest'
import { languageOfPath, pagePath, parseDemoUrl, trimTrailingSlash } from '../../../src/demo/paths.js'
import type { DemoLanguage } from '../../../src/demo/types.js'
import { DEMO_LANGUAGES as LANGUAGES } from './languages.js'

describe('parseDemoUrl', () => {
  it.each([
    ['/', '/', {}],
    ['/pl/', '/pl', {}],
    ['/pl/o-nas/?type=834', '/pl/o-nas', { type: '834' }],
    ['/de/%C3%BCber-uns', '/de/über-uns', {}],
    ['/a?x=1&x=2&y=%20z', '/a', { x: '2', y: ' z' }],
    ['/a#frag', '/a', {}],
    ['http://example.test/pl?type=834', '/pl', { type: '834' }],
    ['/%252e%252e/x', '/%2e%2e/x', {}],
  ])('%s -> %s', (target, path, query) => {
    const result = parseDemoUrl(target)
    expect(result).toMatchObject({ ok: true, url: { path, query } })
  })

  it('keeps the raw path and query as sent', () => {
    expect(parseDemoUrl('/de/%C3%BCber-uns/?a=%41')).toMatchObject({
      ok: true,
      url: { rawPath: '/de/%C3%BCber-uns/', rawQuery: 'a=%41' },
    })
  })

  it.each([
    '/..%2f..%2fetc/passwd',
    '/a/../b',
    '/%2e%2e/x',
    '/./a',
    '/%E0%A4%A',
    '/a%00',
    '/a%5Cb',
    'relative',
    '*',
    'http://[bad',
  ])('refuses %s', (target) => {
    expect(parseDemoUrl(target).ok).toBe(false)
  })
})

describe('languageOfPath', () => {
  it.each([
    ['/', 'en'],
    ['/pl', 'pl'],
    ['/pl/o-nas', 'pl'],
    ['/de/', 'de'],
    ['/plus', 'en'],
    ['/about-us', 'en'],
  ])('%s is %s', (path, code) => {
    expect(languageOfPath(path, LANGUAGES).twoLetterIsoCode).toBe(code)
  })
})

describe('pagePath', () => {
  it('joins the base and the slug without a trailing slash', () => {
    expect(pagePath(LANGUAGES[1] as DemoLanguage, '/o-nas')).toBe('/pl/o-nas')
    expect(pagePath(LANGUAGES[1] as DemoLanguage, '/')).toBe('/pl')
    expect(pagePath(LANGUAGES[0] as DemoLanguage, '/')).toBe('/')
    expect(trimTrailingSlash('/a///')).toBe('/a')
  })
})
