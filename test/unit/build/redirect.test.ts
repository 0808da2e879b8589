import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import {
  checkCloudflareLimits,
  checkRedirectLoops,
  REDIRECT_SCRIPT,
  renderRedirectHtml,
  renderRedirectsFile,
} from '../../../src/build/crawl/redirect.js'
import { redirectPayload } from '../../../src/render/payload.js'

describe('redirect page', () => {
  it('redirects with meta refresh, canonical and a link', () => {
    const html = renderRedirectHtml({ to: '/services', canonical: 'https://www.example.com/services' })
    expect(html).toContain('<meta http-equiv="refresh" content="0; url=/services">')
    expect(html).toContain('<link rel="canonical" href="https://www.example.com/services">')
    expect(html).toContain('<a href="/services">/services</a>')
    expect(html).toContain('<meta name="robots" content="noindex">')
  })

  // Its words are the engine's English on a Polish or German path too: a screen reader must read them as English.
  it('is English', () => {
    expect(renderRedirectHtml({ to: '/pl/uslugi', canonical: '/pl/uslugi' })).toContain('<html lang="en">')
  })

  // A meta refresh drops the visitor's query and #fragment (a campaign link's UTM parameters); a host's 301 keeps them.
  it('redirects by a script after its link, the same text on every page, with the meta refresh as fallback', () => {
    const scriptOf = (html: string) => /<\/a><\/p><script>(.*?)<\/script><\/body>/s.exec(html)?.[1]
    const services = renderRedirectHtml({ to: '/services', canonical: '/services' })
    const external = renderRedirectHtml({
      to: 'https://www.example.org/x?a=1#b',
      canonical: 'https://www.example.org/x',
    })
    expect(scriptOf(services)).toBe(REDIRECT_SCRIPT)
    expect(scriptOf(external)).toBe(REDIRECT_SCRIPT)
    expect(REDIRECT_SCRIPT).toContain('location.replace(')
    expect(services).toContain('<meta http-equiv="refresh" content="0; url=/services">')
  })

  it("has its script's hash in docs/ci.md, for a Content-Security-Policy", async () => {
    const hash = createHash('sha256').update(REDIRECT_SCRIPT).digest('base64')
    expect(await readFile(new URL('../../../docs/ci.md', import.meta.url), 'utf8')).toContain(`'sha256-${hash}'`)
  })

  it('escapes the target', () => {
    const html = renderRedirectHtml({ to: '/a?x=1&y="2"<', canonical: '/a' })
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

  it("puts the project's own rules after the build's, as they are", () => {
    const own = '# blog\n/blog/*  https://blog.example.com/:splat  301\n\n'
    expect(renderRedirectsFile([{ from: '/old', to: '/new', statusCode: 301 }], own)).toBe(
      '/old /new 301\n# public/_redirects\n# blog\n/blog/*  https://blog.example.com/:splat  301\n',
    )
    expect(renderRedirectsFile([], '/a /b 302')).toBe('# public/_redirects\n/a /b 302\n')
    expect(renderRedirectsFile([], ' \n')).toBe('')
  })
})

// Cloudflare Pages applies 2,000 static and 100 dynamic rules, lines of 1,000 characters at most.
describe('checkCloudflareLimits', () => {
  const redirects = (n: number) =>
    renderRedirectsFile(
      Array.from({ length: n }, (_, i) => ({
        from: `/old-${String(i).padStart(4, '0')}`,
        to: '/new',
        statusCode: 301,
      })),
    )

  it('says nothing at the limit', () => {
    expect(checkCloudflareLimits(redirects(2_000))).toEqual([])
    expect(checkCloudflareLimits('')).toEqual([])
  })

  it('names how many rules Cloudflare ignores past 2,000 static ones, and from where', () => {
    expect(checkCloudflareLimits(redirects(2_150))).toEqual([
      "_redirects: 2,150 static rules, over Cloudflare Pages' limit of 2,000: Cloudflare applies the first 2,000 and ignores the other 150 (from /old-2000 on, in file order), which answer 404 there; Netlify and `site serve` apply them all",
    ])
  })

  it('counts dynamic rules apart, and lines over 1,000 characters', () => {
    const dynamic = Array.from({ length: 101 }, (_, i) => `/blog-${i}/* /news/:splat 301`).join('\n')
    const long = `/${'a'.repeat(1_000)} /b 301`
    const warnings = checkCloudflareLimits(`${long}\n${dynamic}\n/a /b 301\n`)
    expect(warnings).toHaveLength(2)
    expect(warnings[0]).toContain("1 rule(s) longer than Cloudflare Pages' 1,000 characters are ignored there")
    expect(warnings[1]).toContain("101 dynamic rules, over Cloudflare Pages' limit of 100")
    expect(warnings[1]).toContain('(from /blog-100/* on, in file order)')
  })
})

describe('checkRedirectLoops', () => {
  const rule = (from: string, to: string) => ({ from, to, statusCode: 301 })

  it('names each loop once, from where it closes', () => {
    expect(
      checkRedirectLoops([rule('/a', '/b'), rule('/b', '/a'), rule('/c', '/a'), rule('/x', '/y'), rule('/y', '/z')]),
    ).toEqual([
      '_redirects: 1 redirect loop(s) lead to no page (/a -> /b -> /a); visitors of these paths get an error: change one redirect of each loop in the CMS',
    ])
  })

  it('matches targets as a host does: without query, fragment or trailing slash, percent-decoded', () => {
    const [note] = checkRedirectLoops([
      rule('/de/%C3%BCber', '/de/alt/?from=menu#top'),
      rule('/de/alt', '/de/über'),
      rule('/pl/a', '/pl/b'),
      rule('/pl/b', '/pl/c'),
      rule('/pl/c', '/pl/a/'),
    ])
    expect(note).toContain('2 redirect loop(s)')
    expect(note).toContain('/de/über -> /de/alt -> /de/über')
    expect(note).toContain('/pl/a -> /pl/b -> /pl/c -> /pl/a')
  })

  it('says nothing of chains that end, and of external targets', () => {
    expect(
      checkRedirectLoops([
        rule('/a', '/b'),
        rule('/b', '/c'),
        rule('/c', 'https://www.example.com/a'),
        rule('/d', '//www.example.com/d'),
      ]),
    ).toEqual([])
  })

  it('names three loops at most', () => {
    const rules = Array.from({ length: 5 }, (_, i) => [rule(`/l${i}a`, `/l${i}b`), rule(`/l${i}b`, `/l${i}a`)]).flat()
    const [note] = checkRedirectLoops(rules)
    expect(note).toContain('5 redirect loop(s)')
    expect(note).toContain('/l2a -> /l2b -> /l2a; …)')
    expect(note).not.toContain('/l3a')
  })
})
