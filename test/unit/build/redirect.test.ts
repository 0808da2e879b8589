import { describe, expect, it } from 'vitest'
import { renderRedirectHtml, renderRedirectsFile } from '../../../src/build/redirect.js'
import { redirectPayload } from '../../../src/render/payload.js'

describe('redirect page', () => {
  it('redirects with meta refresh, canonical and a link', () => {
    const html = renderRedirectHtml({ to: '/services', canonical: 'https://www.example.com/services', lang: 'en' })
    expect(html).toContain('<meta http-equiv="refresh" content="0; url=/services">')
    expect(html).toContain('<link rel="canonical" href="https://www.example.com/services">')
    expect(html).toContain('<a href="/services">/services</a>')
    expect(html).toContain('<meta name="robots" content="noindex">')
  })

  it('escapes the target', () => {
    const html = renderRedirectHtml({ to: '/a?x=1&y="2"<', canonical: '/a', lang: 'en' })
    expect(html).toContain('url=/a?x=1&amp;y=&quot;2&quot;&lt;"')
    expect(html).not.toContain('"2"<')
  })

  it('has a payload the client reads as a redirect', () => {
    expect(redirectPayload({ clientVersion: 'c', locale: 'pl', path: '/pl/x', to: '/pl/y', statusCode: 302 })).toEqual({
      clientVersion: 'c',
      locale: 'pl',
      path: '/pl/x',
      redirect: { to: '/pl/y', statusCode: 302 },
    })
  })
})

describe('_redirects', () => {
  it('lists one sorted line per redirect', () => {
    const file = renderRedirectsFile([
      { from: '/pl/stare', to: '/pl/nowe', statusCode: 301 },
      { from: '/old', to: 'https://other.example/a b', statusCode: 302 },
    ])
    expect(file).toBe('/old https://other.example/a%20b 302\n/pl/stare /pl/nowe 301\n')
  })

  it('is empty without redirects', () => expect(renderRedirectsFile([])).toBe(''))
})
