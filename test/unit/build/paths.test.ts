import { describe, expect, it } from 'vitest'
import { isReservedPath, toCrawlTarget } from '../../../src/build/crawl/paths.js'

const options = { baseUrl: 'https://www.example.com', locales: ['en', 'pl', 'de'] }

describe('toCrawlTarget', () => {
  it.each([
    ['/pl/o-nas/', { type: 'page', path: '/pl/o-nas' }],
    ['/de/%c3%bcber-uns', { type: 'page', path: '/de/%C3%BCber-uns' }],
    ['/de/über-uns', { type: 'page', path: '/de/%C3%BCber-uns' }],
    ['/a?x=1#top', { type: 'page', path: '/a' }],
    ['https://www.example.com/about', { type: 'page', path: '/about' }],
    ['https://other.example/about', { type: 'ignore' }],
    ['//other.example/about', { type: 'ignore' }],
    ['mailto:a@b.c', { type: 'ignore' }],
    ['tel:+48123', { type: 'ignore' }],
    ['#section', { type: 'ignore' }],
    ['', { type: 'ignore' }],
    ['relative/path', { type: 'ignore' }],
    // A file: once only the router knew that, and the crawler requested it as a page.
    ['/fileadmin/a.pdf', { type: 'ignore' }],
    ['https://www.example.com/docs/report.pdf', { type: 'ignore' }],
    ['/.well-known/security', { type: 'page', path: '/.well-known/security' }],
    ['/x/a:b', { type: 'page', path: '/x/a%3Ab' }],
    ['/a.b/c', { type: 'page', path: '/a.b/c' }],
  ])('%s', (href, target) => expect(toCrawlTarget(href, options)).toEqual(target))

  it.each([
    ['/../etc/passwd', 'dot segment'],
    ['/a/%2e%2e/b', 'dot segment'],
    ['/a%2fb', 'encoded slash or NUL'],
    ['/a%00b', 'encoded slash or NUL'],
    ['/a\u0000b', 'control character or backslash'],
    ['/a\\b', 'control character or backslash'],
    [`/${'x'.repeat(2000)}`, 'longer than 1024 characters'],
    [`/${'x'.repeat(300)}`, 'segment longer than 200 bytes'],
    ['/_site/builds/latest.json', 'internal path'],
    ['javascript:alert(1)', 'unsafe URL scheme'],
    ['data:text/html,x', 'unsafe URL scheme'],
    ['/sitemap.xml', 'collides with a file the build writes'],
    ['/a/_payload.json', 'collides with a file the build writes'],
    ['/pl/404.html', 'collides with a file the build writes'],
    // written and linked, a page there would be unreachable (dot folders) or refused by the writer (drives)
    ['/.env', 'a dot folder, which static hosts do not serve'],
    ['/a/.git/config', 'a dot folder, which static hosts do not serve'],
    ['/.well-knownx', 'a dot folder, which static hosts do not serve'],
    ['/a:b', 'a path that starts as a drive letter (c:), which a file system reads as a drive'],
    ['/C:/windows', 'a path that starts as a drive letter (c:), which a file system reads as a drive'],
  ])('refuses %s', (href, reason) =>
    expect(toCrawlTarget(href, options)).toEqual({
      type: 'refused',
      kind: reason.startsWith('collides') ? 'RESERVED_PATH' : 'UNSAFE_LINK',
      reason,
    }),
  )

  it("answers per site and locales, never with another site's answer", () => {
    expect(toCrawlTarget('/pl/o-nas/', options)).toEqual({ type: 'page', path: '/pl/o-nas' })
    // an absolute link is this site's page on its own origin only
    expect(toCrawlTarget('https://www.example.com/about', options)).toEqual({ type: 'page', path: '/about' })
    expect(toCrawlTarget('https://www.example.com/about', { ...options, baseUrl: 'https://a.example' })).toEqual({
      type: 'ignore',
    })
    // `/fr/404.html` collides with a file only where fr is a locale
    expect(toCrawlTarget('/fr/404.html', options)).toEqual({ type: 'page', path: '/fr/404.html' })
    expect(toCrawlTarget('/fr/404.html', { ...options, locales: ['en', 'fr'] })).toMatchObject({
      kind: 'RESERVED_PATH',
    })
  })
})

describe('isReservedPath', () => {
  it.each([
    ['/404.html', true],
    ['/robots.txt', true],
    ['/_redirects', true],
    ['/de/404.html', true],
    ['/x/index.html', true],
    ['/fr/404.html', false],
    ['/about/404.html', false],
    ['/about', false],
    // a name written with escapes is the same name
    ['/x/index%2Ehtml', true],
    ['/sitemap%2exml', true],
    ['/caf%C3%A9', false],
    // a name inside a segment is no file of the build's
    ['/x/index.html-old', false],
    ['/my_payload.json', false],
  ])('%s -> %s', (path, reserved) => expect(isReservedPath(path, options.locales)).toBe(reserved))
})
