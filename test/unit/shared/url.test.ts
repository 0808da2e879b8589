import { describe, expect, it } from 'vitest'
import {
  fromPayloadUrl,
  getLocaleFromPath,
  localeHome,
  normalizePagePath,
  stripLocale,
  toHtmlFile,
  toPayloadFile,
  toPayloadUrl,
  withLocale,
} from '../../../src/shared/url.js'

const i18n = { default: 'en', locales: ['en', 'pl', 'de'] }

describe('locale from path', () => {
  it.each([
    ['/', 'en'],
    ['/about-us', 'en'],
    ['/pl', 'pl'],
    ['/pl/', 'pl'],
    ['/pl/o-nas', 'pl'],
    ['/de/ueber-uns?x=1', 'de'],
    ['/fr/page', 'en'],
    ['/en/page', 'en'],
    ['/plx', 'en'],
  ])('%s -> %s', (path, locale) => expect(getLocaleFromPath(path, i18n)).toBe(locale))
})

describe('locale prefix helpers', () => {
  it.each([
    ['/o-nas', 'pl', '/pl/o-nas'],
    ['/', 'pl', '/pl'],
    ['/', 'en', '/'],
    ['/about', 'en', '/about'],
    ['//a//b', 'de', '/de/a/b'],
  ])('withLocale(%s, %s) = %s', (path, locale, out) => expect(withLocale(path, locale, i18n)).toBe(out))

  it.each([
    ['/pl/o-nas', '/o-nas'],
    ['/pl', '/'],
    ['/about', '/about'],
    ['/de?x=1', '/?x=1'],
  ])('stripLocale(%s) = %s', (path, out) => expect(stripLocale(path, i18n)).toBe(out))

  it('gives each locale its home', () => {
    expect(['en', 'pl', 'de'].map((l) => localeHome(l, i18n))).toEqual(['/', '/pl', '/de'])
  })
})

describe('normalizePagePath', () => {
  it.each([
    ['/', '/'],
    ['/about-us/', '/about-us'],
    ['/a//b/', '/a/b'],
    ['/de/über-uns', '/de/%C3%BCber-uns'],
    ['/de/%c3%bcber-uns', '/de/%C3%BCber-uns'],
    ['/Case/Keeps', '/Case/Keeps'],
    ['/a b', '/a%20b'],
    // plain paths (normalised as they are, without splitting)
    ['/.well-known/a.b~c_d-e', '/.well-known/a.b~c_d-e'],
    ['/_sitemap', '/_sitemap'],
    [`/${'x'.repeat(200)}`, `/${'x'.repeat(200)}`],
  ])('%s -> %s', (input, out) => expect(normalizePagePath(input)).toEqual({ ok: true, path: out }))

  it.each([
    [42, 'not a string'],
    ['about', 'not a site path'],
    ['//evil.example/x', 'not a site path'],
    ['/a/../etc/passwd', 'dot segment'],
    ['/a/%2e%2e/b', 'dot segment'],
    ['/a%2Fb', 'encoded slash or NUL'],
    ['/a%00b', 'encoded slash or NUL'],
    ['/a\u0000b', 'control character or backslash'],
    ['/a\\b', 'control character or backslash'],
    ['/%E0%A4%A', 'malformed percent-encoding'],
    [`/${'x'.repeat(2000)}`, 'longer than 1024 characters'],
    // measured as links and the router carry it, percent-encoded: 707 characters written, 4,207 encoded
    [`/${Array(7).fill('ż'.repeat(100)).join('/')}`, 'longer than 1024 characters'],
    [`/${'x'.repeat(300)}`, 'segment longer than 200 bytes'],
    [`/${'x'.repeat(201)}`, 'segment longer than 200 bytes'],
    ['/a/..', 'dot segment'],
    ['/.', 'dot segment'],
    ['/_site', 'internal path'],
    ['/_site/builds/latest.json', 'internal path'],
    ['/lone-\ud800-surrogate', 'unpaired UTF-16 surrogate'],
    ['/lone-\udc00', 'unpaired UTF-16 surrogate'],
  ])('refuses %j (%s)', (input, reason) => expect(normalizePagePath(input)).toEqual({ ok: false, reason }))
})

describe('path to file mapping', () => {
  it('maps pages to index.html and payloads', () => {
    expect(toHtmlFile('/')).toBe('index.html')
    expect(toHtmlFile('/a/b')).toBe('a/b/index.html')
    expect(toHtmlFile('/pl')).toBe('pl/index.html')
    expect(toHtmlFile('/de/%C3%BCber-uns')).toBe('de/über-uns/index.html')
    expect(toPayloadFile('/a/b')).toBe('a/b/_payload.json')
    expect(toPayloadFile('/')).toBe('_payload.json')
    expect(toPayloadFile('/de/%C3%BCber-uns/a%20b')).toBe('de/über-uns/a b/_payload.json')
    expect(toHtmlFile('/.well-known/a~b')).toBe('.well-known/a~b/index.html')
  })
  it('round-trips payload URLs', () => {
    for (const path of ['/', '/a', '/pl/o-nas']) expect(fromPayloadUrl(toPayloadUrl(path))).toBe(path)
    expect(toPayloadUrl('/')).toBe('/_payload.json')
    expect(fromPayloadUrl('/a/b')).toBeUndefined()
  })
})
