import { describe, expect, it } from 'vitest'
import { matchRedirect, parseRedirects, withRequestQuery } from '../../../src/serve/redirects.js'

describe('parseRedirects', () => {
  // Netlify's forced rules (`301!`) are rules too.
  it('reads forced rules, default status 301, comments and splats', () => {
    const rules = parseRedirects(
      '# comment\n/old /new 301!\n/plain /target\n/temp/ /t 302\n/blog/* /news/:splat 301\n/bad /x 301x\n/ok /y 200\n',
    )
    expect(rules).toEqual([
      { from: '/old', to: '/new', status: 301, force: true },
      { from: '/plain', to: '/target', status: 301, force: false },
      { from: '/temp', to: '/t', status: 302, force: false },
      { from: '/blog/*', to: '/news/:splat', status: 301, force: false },
    ])
    expect(matchRedirect(rules, '/old/')).toEqual({ to: '/new', status: 301 })
    expect(matchRedirect(rules, '/blog/a/b')).toEqual({ to: '/news/a/b', status: 301 })
    expect(matchRedirect(rules, '/other')).toBeUndefined()
  })

  it('skips a 3xx status that is no redirect (304 Not Modified, 300, 305), as both hosts take only 301-303, 307, 308', () => {
    const rules = parseRedirects('/a /x 304\n/b /x 300\n/c /x 305\n/d /x 303\n/e /x 307\n/f /x 308\n')
    expect(rules.map((rule) => rule.status)).toEqual([303, 307, 308])
    expect(matchRedirect(rules, '/a')).toBeUndefined()
  })

  it('fills every :splat, and never makes a rule to a path of the site a link to another host', () => {
    const rules = parseRedirects('/en/* /:splat 301\n/docs/* /manual/:splat?from=:splat 302\n')
    expect(matchRedirect(rules, '/en//evil.com')).toEqual({ to: '/evil.com', status: 301 })
    expect(matchRedirect(rules, '/en///evil.com/x')).toEqual({ to: '/evil.com/x', status: 301 })
    expect(matchRedirect(rules, '/en/about')).toEqual({ to: '/about', status: 301 })
    expect(matchRedirect(rules, '/docs/a/b')).toEqual({ to: '/manual/a/b?from=a/b', status: 302 })
  })
})

describe('a rule with :name placeholders', () => {
  it('matches one segment a placeholder, gives it to the target by name, and leaves other colons alone', () => {
    const rules = parseRedirects(
      [
        '/news/:year/:slug /blog/:slug?y=:year 301',
        '/shop/:item/* https://shop.example.com:8443/p/:item/:splat 302',
        '/docs/:page /manual/:page#:anchor 301',
        '/a:b /c 301',
      ].join('\n'),
    )
    expect(matchRedirect(rules, '/news/2024/launch')).toEqual({ to: '/blog/launch?y=2024', status: 301 })
    expect(matchRedirect(rules, '/news/2024/launch/')).toEqual({ to: '/blog/launch?y=2024', status: 301 })
    expect(matchRedirect(rules, '/shop/42/a/b')).toEqual({ to: 'https://shop.example.com:8443/p/42/a/b', status: 302 })
    // a placeholder no segment filled is left as it is written
    expect(matchRedirect(rules, '/docs/intro')).toEqual({ to: '/manual/intro#:anchor', status: 301 })
    // a colon inside a segment is that segment's text
    expect(matchRedirect(rules, '/a:b')).toEqual({ to: '/c', status: 301 })
    // a placeholder takes exactly one segment, never an empty one
    for (const path of ['/news/2024', '/news/2024/a/b', '/news//launch', '/news/2024//', '/docs']) {
      expect(matchRedirect(rules, path)).toBeUndefined()
    }
    // a request's `//` cannot make the target another host: a placeholder never takes an empty segment
    expect(matchRedirect(parseRedirects('/go/:to /:to 302'), '/go//evil.com')).toBeUndefined()
  })
})

describe('a rule written with non-ASCII characters', () => {
  it('matches the percent-encoded path a request carries and gives an ASCII target', () => {
    const rules = parseRedirects(
      '/pl/stare-usługi /pl/usługi?s=ż#ä 301\n/über/* https://example.com/straße/:splat 302\n',
    )
    expect(rules.map((rule) => rule.to)).toEqual([
      '/pl/us%C5%82ugi?s=%C5%BC#%C3%A4',
      'https://example.com/stra%C3%9Fe/:splat',
    ])
    expect(matchRedirect(rules, '/pl/stare-us%C5%82ugi')).toEqual({
      to: '/pl/us%C5%82ugi?s=%C5%BC#%C3%A4',
      status: 301,
    })
    expect(matchRedirect(rules, '/%C3%BCber/a')).toEqual({ to: 'https://example.com/stra%C3%9Fe/a', status: 302 })
    // a rule already percent-encoded (as the build writes them) stays as it is
    expect(parseRedirects('/a%20b /c%C5%BC 301\n')).toEqual([
      { from: '/a%20b', to: '/c%C5%BC', status: 301, force: false },
    ])
  })
})

describe('a request path written otherwise than the rule', () => {
  it('matches as the file it names would: escapes in either case, characters escaped or not', () => {
    // the build writes its rules in one form: `/stary-%C5%BC%C3%B3%C5%82w`, `/old%2Bplus`
    const rules = parseRedirects('/stary-%C5%BC%C3%B3%C5%82w /pl/nowy 301\n/old%2Bplus /new 301\n/a+b /c 301\n')
    for (const path of ['/stary-%c5%bc%c3%b3%c5%82w', '/stary-%C5%BC%c3%b3%C5%82w/', '/stary-%C5%BC%C3%B3%C5%82w']) {
      expect(matchRedirect(rules, path)).toEqual({ to: '/pl/nowy', status: 301 })
    }
    expect(matchRedirect(rules, '/old+plus')).toEqual({ to: '/new', status: 301 })
    expect(matchRedirect(rules, '/old%2bplus')).toEqual({ to: '/new', status: 301 })
    // a hand-written rule matches the escaped form of its own characters too
    expect(matchRedirect(rules, '/a%2Bb')).toEqual({ to: '/c', status: 301 })
    expect(matchRedirect(rules, '/a+b')).toEqual({ to: '/c', status: 301 })
  })
})

describe('withRequestQuery', () => {
  it("adds the request's query to a target that has none, before its fragment, and keeps a target's own", () => {
    expect(withRequestQuery('/new', '?a=1')).toBe('/new?a=1')
    expect(withRequestQuery('/new#top', '?a=1')).toBe('/new?a=1#top')
    expect(withRequestQuery('/new#top?x', '?a=1')).toBe('/new?a=1#top?x')
    expect(withRequestQuery('https://example.com/new', '?a=1')).toBe('https://example.com/new?a=1')
    expect(withRequestQuery('/new?b=2', '?a=1')).toBe('/new?b=2')
    expect(withRequestQuery('/new?b=2#top', '?a=1')).toBe('/new?b=2#top')
    expect(withRequestQuery('/new', '')).toBe('/new')
  })
})
