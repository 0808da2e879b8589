import { describe, expect, it } from 'vitest'
import { matchRedirect, parseRedirects } from '../../../src/serve/redirects.js'

describe('parseRedirects', () => {
  // Issue 14, item 2: Netlify's forced rules (`301!`) are rules too.
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
})
