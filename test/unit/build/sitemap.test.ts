import { describe, expect, it } from 'vitest'
import {
  planSitemaps,
  renderRobots,
  renderSitemaps,
  SITEMAP_MAX_BYTES,
  SITEMAP_MAX_URLS,
  sitemapFilesOf,
  toPageFact,
} from '../../../src/build/output/sitemap.js'
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

  it('escapes XML', () => {
    const xml = renderSitemaps([fact("/a&b'", 'en')], 'https://x.example')[0]!.contents
    expect(xml).toContain('<loc>https://x.example/a&amp;b&#39;</loc>')
  })

  // A sitemap of root-relative URLs (`<loc>/</loc>`) failed the sitemaps.org schema, and robots.txt named it as
  // `Sitemap: /sitemap.xml`, which search engines do not take: the protocol takes absolute URLs only.
  it('is not written without baseUrl, and robots.txt names none', () => {
    expect(renderSitemaps([fact('/', 'en'), fact('/pl', 'pl')], undefined)).toEqual([])
    expect(renderRobots(undefined)).toBe('User-agent: *\nAllow: /\n')
  })

  it('splits into an index and numbered files past the URL limit', () => {
    const files = renderSitemaps([fact('/a', 'en'), fact('/b', 'en'), fact('/c', 'en')], 'https://x.example', {
      maxUrls: 2,
    })
    expect(files.map((f) => f.path)).toEqual(['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml'])
    expect(files[0]!.contents).toContain('<sitemapindex')
    expect(files[0]!.contents).toContain('<loc>https://x.example/sitemap-2.xml</loc>')
    expect(files[2]!.contents).toContain('<loc>https://x.example/c</loc>')
  })

  it("names an output's sitemap files, the numbered ones after its index, from its file hashes", () => {
    const hashes =
      (...paths: string[]) =>
      (path: string) =>
        paths.includes(path) ? 'hash' : undefined
    expect(sitemapFilesOf(hashes('sitemap.xml', 'robots.txt'))).toEqual(['sitemap.xml'])
    expect(sitemapFilesOf(hashes('sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml', 'sitemap-4.xml'))).toEqual([
      'sitemap.xml',
      'sitemap-1.xml',
      'sitemap-2.xml',
    ])
    expect(sitemapFilesOf(hashes('sitemap-1.xml'))).toBeUndefined()
  })

  it('leaves out a page whose canonical names another page, and alternates pointing at it', () => {
    const copy = { ...fact('/pl/o-nas', 'pl', trio), canonical: 'https://www.example.com/pl/inna' }
    const xml = renderSitemaps([fact('/about', 'en', trio), copy], 'https://www.example.com')[0]!.contents
    expect(xml).toContain('<loc>https://www.example.com/about</loc>')
    expect(xml).not.toContain('/pl/o-nas')
  })

  // 49,998 URLs in three locales with 120-character paths once made one 50.5 MiB sitemap.xml.
  it("splits by size too, keeping every file within Google's 50 MB", () => {
    const slug = (i: number) => `${String(i).padStart(6, '0')}-${'x'.repeat(113)}`
    const facts: PageFact[] = []
    for (let i = 0; facts.length < 49_998; i++) {
      const paths = { en: `/${slug(i)}`, pl: `/pl/${slug(i)}`.slice(0, 121), de: `/de/${slug(i)}`.slice(0, 121) }
      const alternates = [
        { hreflang: 'en-US', path: paths.en },
        { hreflang: 'pl-PL', path: paths.pl },
        { hreflang: 'de-DE', path: paths.de },
        { hreflang: 'x-default', path: paths.en },
      ]
      for (const locale of ['en', 'pl', 'de'] as const)
        if (facts.length < 49_998) facts.push(fact(paths[locale], locale, alternates))
    }
    const files = planSitemaps(facts, 'https://www.amberline-software.example')
    const sizes = files.map((file) => {
      let bytes = 0
      let urls = 0
      for (const part of file.parts()) {
        bytes += Buffer.byteLength(part)
        urls += part.split('<url>').length - 1
      }
      return { path: file.path, bytes, urls }
    })
    const total = sizes.reduce((sum, s) => sum + s.bytes, 0)
    expect(total).toBeGreaterThan(SITEMAP_MAX_BYTES) // the case above: one file would be too large
    expect(sizes[0]!.path).toBe('sitemap.xml')
    expect([...files[0]!.parts()].join('')).toContain('<sitemapindex')
    expect(sizes.length).toBeGreaterThanOrEqual(3)
    for (const size of sizes) {
      expect(size.bytes, size.path).toBeLessThanOrEqual(SITEMAP_MAX_BYTES)
      expect(size.urls, size.path).toBeLessThanOrEqual(SITEMAP_MAX_URLS)
    }
    expect(sizes.reduce((sum, s) => sum + s.urls, 0)).toBe(49_998)
  })

  it('puts an entry larger than the byte limit in a file of its own', () => {
    const files = renderSitemaps([fact('/a', 'en'), fact('/b', 'en'), fact('/c', 'en')], 'https://x.example', {
      maxBytes: 200,
    })
    expect(files.map((f) => f.path)).toEqual(['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml'])
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

describe('toPageFact robots', () => {
  // TypoScript `page.meta.robots = noindex` reaches only the seo block: its head said noindex while
  // sitemap.xml listed it ("Submitted URL marked noindex" in Search Console).
  it.each([
    [{ noIndex: false }, [{ name: 'robots', content: 'noindex,follow' }], true],
    [{ noIndex: false }, [{ name: 'robots', content: 'NONE' }], true],
    [{ noIndex: true }, [{ name: 'robots', content: 'index,follow' }], false],
    [{ noIndex: true }, [{ property: 'robots', content: 'index' }], true],
    [{ noIndex: false }, [{ name: 'description', content: 'noindex' }], false],
    // a meta name is read in any case (HTML: ASCII case-insensitive), by crawlers as by the head
    [{ noIndex: false }, [{ name: 'ROBOTS', content: 'NOINDEX,NOFOLLOW' }], true],
    [{ noIndex: true }, [{ name: 'Robots', content: 'index' }], false],
  ])('meta.robots %j and seo.meta %j: noIndex %s, as the head says', (robots, meta, noIndex) => {
    const page = { id: 1, meta: { robots }, seo: { meta }, appearance: {}, content: {} } as unknown as PageData
    const site = { baseUrl: undefined, i18n: { default: 'en', locales: ['en'] } }
    expect(toPageFact({ path: '/a', locale: 'en', page, site }).noIndex).toBe(noIndex)
  })
})

// A site whose every page is noindex (staging) got `<urlset>` with no `<url>`, which the sitemap
// schema refuses (xmllint: missing child element url), and robots.txt pointed crawlers at it.
describe('a site with no indexable page', () => {
  it('gets no sitemap file, and robots.txt names none', () => {
    expect(renderSitemaps([fact('/', 'en', [], true), fact('/pl', 'pl', [], true)], 'https://x.example')).toEqual([])
    expect(renderRobots('https://x.example', undefined, false)).toBe('User-agent: *\nAllow: /\n')
  })
})

describe('renderRobots', () => {
  it('allows all and points at the absolute sitemap', () => {
    expect(renderRobots('https://x.example')).toBe(
      'User-agent: *\nAllow: /\n\nSitemap: https://x.example/sitemap.xml\n',
    )
  })
  it("keeps the project's own robots.txt and adds the sitemap once", () => {
    expect(renderRobots('https://x.example', 'User-agent: *\nDisallow: /private')).toBe(
      'User-agent: *\nDisallow: /private\n\nSitemap: https://x.example/sitemap.xml\n',
    )
    expect(renderRobots('https://x.example', 'Sitemap: https://cdn.example/s.xml\n')).toBe(
      'Sitemap: https://cdn.example/s.xml\n',
    )
  })
})
