import { describe, expect, it } from 'vitest'
import { checkRedirectTarget } from '../../../src/shared/redirect-target.js'

const BASE = 'https://www.example.com'

describe('checkRedirectTarget: one rule for the build and for preview', () => {
  it.each([
    ['/services/', { type: 'internal', path: '/services', to: '/services', page: true }],
    ['/pl/o-nas?a=1#b', { type: 'internal', path: '/pl/o-nas', to: '/pl/o-nas?a=1#b', page: true }],
    ['https://www.example.com/x', { type: 'internal', path: '/x', to: '/x', page: true }],
    ['/a b', { type: 'internal', path: '/a%20b', to: '/a%20b', page: true }],
    ['/fileadmin/a.pdf', { type: 'internal', path: '/fileadmin/a.pdf', to: '/fileadmin/a.pdf', page: false }],
    ['https://other.example/x?y=1', { type: 'external', to: 'https://other.example/x?y=1' }],
    ['http://example.com', { type: 'external', to: 'http://example.com' }],
    // Raw non-ASCII in query and hash once reached Location headers (500 in serve and preview).
    [
      '/pl/o-nas?q=zażółć gęślą#sekcja-ü',
      {
        type: 'internal',
        path: '/pl/o-nas',
        to: '/pl/o-nas?q=za%C5%BC%C3%B3%C5%82%C4%87%20g%C4%99%C5%9Bl%C4%85#sekcja-%C3%BC',
        page: true,
      },
    ],
    ['/a?x="<y>"|^#b#c', { type: 'internal', path: '/a', to: '/a?x=%22%3Cy%3E%22%7C%5E#b%23c', page: true }],
    ['/a?ok=1%20&b=2#top', { type: 'internal', path: '/a', to: '/a?ok=1%20&b=2#top', page: true }],
    ['/a?emoji=😀', { type: 'internal', path: '/a', to: '/a?emoji=%F0%9F%98%80', page: true }],
    // A `%` that starts no escape went raw into `_redirects` and Location (`?off=100%`): no URL.
    ['/a?off=100%&x=%zz#50%', { type: 'internal', path: '/a', to: '/a?off=100%25&x=%25zz#50%25', page: true }],
    ['https://other.example/x?off=5%', { type: 'external', to: 'https://other.example/x?off=5%25' }],
    [
      'https://other.example/szukaj/żółw?q=ą#ę',
      { type: 'external', to: 'https://other.example/szukaj/%C5%BC%C3%B3%C5%82w?q=%C4%85#%C4%99' },
    ],
    ['https://bücher.example/a?b=ü', { type: 'external', to: 'https://xn--bcher-kva.example/a?b=%C3%BC' }],
    // A host reads `_redirects` destinations by a lower-case scheme: `HTTPS://…` made the line an error there.
    ['HTTPS://other.example/X', { type: 'external', to: 'https://other.example/X' }],
    ['Http://Other.example/', { type: 'external', to: 'http://Other.example/' }],
  ])('%s', (url, target) => expect(checkRedirectTarget(url, BASE)).toEqual(target))

  it.each([
    ['javascript:alert(1)', 'unsafe URL scheme'],
    ['data:text/html,<script>', 'unsafe URL scheme'],
    ['/../../etc/passwd', 'dot segment'],
    // The build refuses these; preview once sent them on as Location.
    ['/a/../b', 'dot segment'],
    ['/a/%2f', 'encoded slash or NUL'],
    ['/a%2fb', 'encoded slash or NUL'],
    ['/a\r\nSet-Cookie: x=1', 'control character'],
    ['/a?next=\u0085x', 'control character'],
    ['https://x.example/#\u009b31m', 'control character'],
    ['/a?\u007f', 'control character'],
    ['ftp://x.example/f', 'unsafe URL scheme'],
    ['relative', 'not a site path or an http(s) URL'],
    ['//cdn.example/x', 'not a site path or an http(s) URL'],
    ['#top', 'not a site path or an http(s) URL'],
    ['https://', 'not a valid URL'],
    ['\\\\evil', 'control character or backslash'],
    ['https://x.example/"><script>', 'an http(s) URL with a space, a quote, < or > or a backslash in it'],
    ['https://example.org/p#x y', 'an http(s) URL with a space, a quote, < or > or a backslash in it'],
    ['', 'empty redirect target'],
    // a user name before the host reads as the site's own address to a visitor: `www.example.com@` leads elsewhere
    ['https://www.example.com@evil.example/login', 'an http(s) URL with a user name or password in it'],
    ['https://user:pw@other.example/', 'an http(s) URL with a user name or password in it'],
  ])('refuses %j (%s)', (url, reason) => expect(checkRedirectTarget(url, BASE)).toEqual({ type: 'refused', reason }))
})

describe('a redirect to the path that redirects', () => {
  it('is refused whatever its query, hash or form; another path is not', () => {
    for (const url of ['/old', '/old/', '/old?x=1', '/old#top', `${BASE}/old`])
      expect(checkRedirectTarget(url, BASE, '/old'), url).toEqual({ type: 'refused', reason: 'a redirect to itself' })
    expect(checkRedirectTarget('/new', BASE, '/old')).toMatchObject({ type: 'internal', path: '/new' })
    expect(checkRedirectTarget('/old', BASE)).toMatchObject({ type: 'internal', path: '/old' })
  })
})
