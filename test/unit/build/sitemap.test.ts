import { describe, expect, it } from 'vitest'
import { renderRobots, renderSitemaps, toPageFact } from '../../../src/build/sitemap.js'
import type { PageFact } from '../../../src/build/types.js'
import type { PageData } from '../../../src/shared/types.js'

const fact = (path: string, locale: string, alternates: PageFact['alternates'] = [], noIndex = false): PageFact => ({
  path,
  locale,
  noIndex,
  alternates,
})
const trio = [
  { hreflang: 'en-US', path: '/about' },
  { hreflang: 'x-default', path: '/about' },
  { hreflang: 'pl-PL', path: '/pl/o-nas' },
  { hreflang: 'de-DE', path: '/de/ueber-uns' },
]

describe('renderSitemaps', () => {
  it('lists indexable pages sorted, with absolute hreflang alternates', () => {
    const [file, ...rest] = renderSitemaps(
      [fact('/pl/o-nas', 'pl', trio), fact('/about', 'en', trio), fact('/de/ueber-uns', 'de', trio, true)],
      'https://www.example.com',
    )
    expect(rest).toEqual([])
    expect(file!.path).toBe('sitemap.xml')
    const xml = file!.contents
    expect(xml).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"')
    expect(xml.indexOf('<loc>https://www.example.com/about</loc>')).toBeLessThan(
      xml.indexOf('<loc>https://www.example.com/pl/o-nas</loc>'),
    )
    expect(xml).not.toContain('<loc>https://www.example.com/de/ueber-uns</loc>')
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="pl-PL" href="https://www.example.com/pl/o-nas"/>')
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="x-default" href="https://www.example.com/about"/>')
    // the noIndex page is no alternate either
    expect(xml).not.toContain('hreflang="de-DE"')
  })

  it('leaves out alternates when a page has no other language', () => {
    const xml = renderSitemaps([fact('/only', 'en', [{ hreflang: 'en', path: '/only' }])], 'https://x.example')[0]!
      .contents
    expect(xml).not.toContain('xhtml:link')
  })

  it('uses root-relative URLs without baseUrl and escapes XML', () => {
    const xml = renderSitemaps([fact("/a&b'", 'en')], undefined)[0]!.contents
    expect(xml).toContain('<loc>/a&amp;b&#39;</loc>')
  })

  it('splits into an index and numbered files past the URL limit', () => {
    const files = renderSitemaps([fact('/a', 'en'), fact('/b', 'en'), fact('/c', 'en')], 'https://x.example', 2)
    expect(files.map((f) => f.path)).toEqual(['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml'])
    expect(files[0]!.contents).toContain('<sitemapindex')
    expect(files[0]!.contents).toContain('<loc>https://x.example/sitemap-2.xml</loc>')
    expect(files[2]!.contents).toContain('<loc>https://x.example/c</loc>')
  })

  it('leaves out a page whose canonical names another page, and alternates pointing at it (issue 14)', () => {
    const copy = { ...fact('/pl/o-nas', 'pl', trio), canonical: 'https://www.example.com/pl/inna' }
    const xml = renderSitemaps([fact('/about', 'en', trio), copy], 'https://www.example.com')[0]!.contents
    expect(xml).toContain('<loc>https://www.example.com/about</loc>')
    expect(xml).not.toContain('/pl/o-nas')
  })

  it('writes a valid empty sitemap when no page is indexable', () => {
    expect(renderSitemaps([], 'https://x.example')[0]!.contents).toContain('<urlset')
  })
})

describe('toPageFact', () => {
  it('keeps available translations, their hreflang and x-default for the default language', () => {
    const page = {
      id: 1,
      meta: { robots: { noIndex: true } },
      appearance: {},
      content: {},
      i18n: [
        {
          languageId: 0,
          twoLetterIsoCode: 'en',
          hreflang: 'en-US',
          navigationTitle: 'EN',
          link: '/about/',
          available: 1,
          active: 1,
        },
        {
          languageId: 1,
          twoLetterIsoCode: 'pl',
          hreflang: '',
          navigationTitle: 'PL',
          link: '/pl/o-nas',
          available: 1,
          active: 0,
        },
        { languageId: 2, twoLetterIsoCode: 'de', navigationTitle: 'DE', link: '/de/x', available: 0, active: 0 },
        { languageId: 3, twoLetterIsoCode: 'fr', navigationTitle: 'FR', link: 'javascript:x', available: 1, active: 0 },
      ],
    } as unknown as PageData
    const site = { baseUrl: undefined, i18n: { default: 'en', locales: ['en', 'pl', 'de', 'fr'] } }
    expect(toPageFact({ path: '/about', locale: 'en', page, site })).toEqual({
      path: '/about',
      locale: 'en',
      noIndex: true,
      alternates: [
        { hreflang: 'en-US', path: '/about' },
        { hreflang: 'pl', path: '/pl/o-nas' },
        { hreflang: 'x-default', path: '/about' },
      ],
    })
  })
})

describe('renderRobots', () => {
  it('allows all and points at the absolute sitemap', () => {
    expect(renderRobots('https://x.example')).toBe(
      'User-agent: *\nAllow: /\n\nSitemap: https://x.example/sitemap.xml\n',
    )
  })
  it('points at a root-relative sitemap without baseUrl', () =>
    expect(renderRobots(undefined)).toContain('Sitemap: /sitemap.xml\n'))
  it("keeps the project's own robots.txt and adds the sitemap once", () => {
    expect(renderRobots('https://x.example', 'User-agent: *\nDisallow: /private')).toBe(
      'User-agent: *\nDisallow: /private\n\nSitemap: https://x.example/sitemap.xml\n',
    )
    expect(renderRobots('https://x.example', 'Sitemap: https://cdn.example/s.xml\n')).toBe(
      'Sitemap: https://cdn.example/s.xml\n',
    )
  })
})
