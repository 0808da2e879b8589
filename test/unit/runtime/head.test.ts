import { describe, expect, it } from 'vitest'
import { buildHead, getBodyClass, getHtmlAttrs, robotsContent } from '../../../src/runtime/head.js'
import type { HeadTag, RenderState } from '../../../src/shared/contract.js'
import type { LanguageEntry, PageData } from '../../../src/shared/types.js'
import { makeState } from '../render/helpers.js'

const lang = (code: string, id: number, link: string, extra: Partial<LanguageEntry> = {}): LanguageEntry => ({
  languageId: id,
  navigationTitle: code.toUpperCase(),
  twoLetterIsoCode: code,
  hreflang: '',
  link,
  active: 0,
  available: 1,
  direction: 'ltr',
  ...extra,
})

const page = (extra: Partial<PageData> = {}): PageData => ({
  id: 47,
  meta: {
    title: 'About us',
    description: 'Who we are',
    robots: { noIndex: false, noFollow: false },
    ogImage: null,
    twitterImage: null,
    canonical: '',
  },
  appearance: { layout: 'layout-0', backendLayout: 'default' },
  content: {},
  i18n: [
    lang('en', 0, '/about', { active: 1 }),
    lang('pl', 1, '/pl/o-nas'),
    lang('de', 2, '/de/uber-uns', { available: 0 }),
  ],
  ...extra,
})

const state = (overrides: Partial<RenderState> = {}): RenderState =>
  makeState({ path: '/about', page: page(), ...overrides })

const metaOf = (tags: HeadTag[], key: string): string[] =>
  tags
    .filter((t) => t.tag === 'meta' && (t.attrs.name === key || t.attrs.property === key))
    .map((t) => t.attrs.content ?? '')
const linksOf = (tags: HeadTag[], rel: string) =>
  tags.filter((t) => t.tag === 'link' && t.attrs.rel === rel).map((t) => t.attrs)

describe('buildHead', () => {
  it('gives title, description and the Open Graph and Twitter tags from meta, falling back to the title', () => {
    const tags = buildHead(state())
    expect(tags[0]).toMatchObject({ tag: 'title', children: 'About us' })
    expect(metaOf(tags, 'description')).toEqual(['Who we are'])
    expect(metaOf(tags, 'og:title')).toEqual(['About us'])
    expect(metaOf(tags, 'og:description')).toEqual(['Who we are'])
    expect(metaOf(tags, 'twitter:title')).toEqual(['About us'])
  })

  it('defaults og:type to website and twitter:card to summary', () => {
    const tags = buildHead(state())
    expect(metaOf(tags, 'og:type')).toEqual(['website'])
    expect(metaOf(tags, 'twitter:card')).toEqual(['summary'])
    const custom = buildHead(state({ page: page({ meta: { title: 'x', twitterCard: 'summary_large_image' } }) }))
    expect(metaOf(custom, 'twitter:card')).toEqual(['summary_large_image'])
  })

  it('omits tags whose content would be empty, never writing content=""', () => {
    const tags = buildHead(state({ page: page({ meta: { title: 'Only a title', description: '', ogImage: null } }) }))
    expect(metaOf(tags, 'description')).toEqual([])
    expect(metaOf(tags, 'og:image')).toEqual([])
    expect(metaOf(tags, 'twitter:image')).toEqual([])
    expect(metaOf(tags, 'robots')).toEqual([])
    expect(tags.every((t) => t.tag !== 'meta' || (t.attrs.content ?? '') !== '')).toBe(true)
  })

  it('uses ogImage.publicUrl for og:image and as the twitter:image fallback', () => {
    const img = { publicUrl: 'https://cdn.example.com/og.png' }
    const tags = buildHead(state({ page: page({ meta: { title: 't', ogImage: img } }) }))
    expect(metaOf(tags, 'og:image')).toEqual(['https://cdn.example.com/og.png'])
    expect(metaOf(tags, 'twitter:image')).toEqual(['https://cdn.example.com/og.png'])
  })

  it('writes robots from the flags, lower case, omitted when neither is set', () => {
    expect(robotsContent({ noIndex: true, noFollow: true })).toBe('noindex, nofollow')
    expect(robotsContent({ noIndex: false, noFollow: true })).toBe('nofollow')
    expect(robotsContent({ noIndex: false, noFollow: false })).toBe('')
    const tags = buildHead(state({ page: page({ meta: { title: 't', robots: { noIndex: true, noFollow: false } } }) }))
    expect(metaOf(tags, 'robots')).toEqual(['noindex'])
  })

  it('prefers the seo block key by key and keeps its repeated items', () => {
    const seo = {
      title: 'SEO title',
      meta: [
        { name: 'description', content: 'SEO description' },
        { property: 'og:image', content: 'https://cdn.example.com/a.png' },
        { property: 'og:image:width', content: '1200' },
        { property: 'og:image:width', content: '600' },
        { name: 'keywords', content: '' },
      ],
      link: [{ rel: 'canonical', href: 'https://www.example.com/about-us' }],
    }
    const tags = buildHead(state({ page: page({ seo }) }))
    expect(tags[0]?.children).toBe('SEO title')
    expect(metaOf(tags, 'description')).toEqual(['SEO description'])
    expect(metaOf(tags, 'og:image:width')).toEqual(['1200', '600'])
    expect(metaOf(tags, 'keywords')).toEqual([])
    expect(metaOf(tags, 'og:title')).toEqual(['About us'])
    expect(linksOf(tags, 'canonical')).toEqual([expect.objectContaining({ href: 'https://www.example.com/about-us' })])
  })

  // HTML reads a meta name in any case: a CMS's `ROBOTS` or `Description` was written beside the tag from meta, two
  // robots tags, and the page was listed in the sitemap while its head said noindex.
  it('takes a seo block meta name in any case as that name, in lower case', () => {
    const seo = {
      meta: [
        { name: 'ROBOTS', content: 'NOINDEX' },
        { name: 'Description', content: 'SEO description' },
      ],
    }
    const tags = buildHead(state({ page: page({ seo, meta: { ...page().meta, robots: { noFollow: true } } }) }))
    expect(metaOf(tags, 'robots')).toEqual(['NOINDEX'])
    expect(metaOf(tags, 'description')).toEqual(['SEO description'])
    expect(tags.filter((t) => /^(robots|description)$/i.test(t.attrs.name ?? ''))).toHaveLength(2)
  })

  it('adds hreflang alternates for available languages plus x-default only with baseUrl', () => {
    expect(linksOf(buildHead(state()), 'alternate')).toEqual([])
    const tags = buildHead(state({ site: { ...state().site, baseUrl: 'https://www.example.com/' } }))
    expect(linksOf(tags, 'canonical').map((l) => l.href)).toEqual(['https://www.example.com/about'])
    expect(linksOf(tags, 'alternate').map((l) => [l.hreflang, l.href])).toEqual([
      ['en', 'https://www.example.com/about'],
      ['pl', 'https://www.example.com/pl/o-nas'],
      ['x-default', 'https://www.example.com/about'],
    ])
  })

  it('makes a relative canonical absolute on baseUrl and keeps an absolute one', () => {
    const base = { ...state().site, baseUrl: 'https://www.example.com' }
    const relative = buildHead(
      state({ site: base, page: page({ meta: { title: 't', canonical: { href: '/about-us' } } }) }),
    )
    expect(linksOf(relative, 'canonical').map((l) => l.href)).toEqual(['https://www.example.com/about-us'])
    const absolute = buildHead(
      state({ page: page({ meta: { title: 't', canonical: { href: 'https://other.example.com/x' } } }) }),
    )
    expect(linksOf(absolute, 'canonical').map((l) => l.href)).toEqual(['https://other.example.com/x'])
  })

  // Canonical, og:url, hreflang and the sitemap name a page by one URL.
  describe('one URL per page', () => {
    const site = { ...state().site, baseUrl: 'http://127.0.0.1:8080' }
    const cms = (path: string, canonical: string, links: LanguageEntry[]) =>
      buildHead(
        state({
          site,
          path,
          locale: 'pl',
          page: page({
            seo: { link: [{ rel: 'canonical', href: canonical }] },
            i18n: links,
          }),
        }),
      )
    const home = [
      lang('en', 0, 'https://www.amberline.example/'),
      lang('pl', 1, 'https://www.amberline.example/pl/', { hreflang: 'pl-PL' }),
      lang('de', 2, '/de/'),
    ]

    it("names a locale home by the site's URL, not the CMS's host or trailing slash", () => {
      const tags = cms('/pl', 'https://www.amberline.example/pl/', home)
      expect(linksOf(tags, 'canonical').map((l) => l.href)).toEqual(['http://127.0.0.1:8080/pl'])
      expect(metaOf(tags, 'og:url')).toEqual(['http://127.0.0.1:8080/pl'])
      expect(linksOf(tags, 'alternate').map((l) => [l.hreflang, l.href])).toEqual([
        ['en', 'http://127.0.0.1:8080/'],
        ['pl-PL', 'http://127.0.0.1:8080/pl'],
        ['de', 'http://127.0.0.1:8080/de'],
        ['x-default', 'http://127.0.0.1:8080/'],
      ])
    })

    it('keeps a canonical that names another page, and og:url follows it', () => {
      const tags = cms('/pl/kopia', 'https://www.amberline.example/pl/oryginal', home)
      expect(linksOf(tags, 'canonical').map((l) => l.href)).toEqual(['https://www.amberline.example/pl/oryginal'])
      expect(metaOf(tags, 'og:url')).toEqual(['https://www.amberline.example/pl/oryginal'])
      const relative = cms('/pl/kopia', '/pl/oryginal/', home)
      expect(linksOf(relative, 'canonical').map((l) => l.href)).toEqual(['http://127.0.0.1:8080/pl/oryginal'])
    })

    it("gives every page an og:url, the CMS's own og:url replaced", () => {
      const seo = { meta: [{ property: 'og:url', content: 'https://www.amberline.example/about/' }] }
      const tags = buildHead(state({ site, page: page({ seo }) }))
      expect(metaOf(tags, 'og:url')).toEqual(['http://127.0.0.1:8080/about'])
      expect(linksOf(tags, 'canonical').map((l) => l.href)).toEqual(['http://127.0.0.1:8080/about'])
    })
  })

  it('gives error pages a localised title, noindex and no canonical', () => {
    const bare = buildHead(state({ status: 404, page: null, locale: 'pl', path: '/pl/nope' }))
    expect(bare[0]?.children).toBe('Nie znaleziono strony')
    expect(metaOf(bare, 'robots')).toEqual(['noindex'])
    expect(buildHead(state({ status: 500, page: null, locale: 'de' }))[0]?.children).toBe('Fehler 500')
    const withPage = buildHead(state({ status: 404, site: { ...state().site, baseUrl: 'https://x.example' } }))
    expect(metaOf(withPage, 'robots')).toEqual(['noindex'])
    expect(linksOf(withPage, 'canonical')).toEqual([])
  })

  // A 404 without page content once had no meta description (Lighthouse SEO).
  it('gives a not-found page without page content a localised meta description', () => {
    for (const [locale, words] of [
      ['en', 'does not exist'],
      ['pl', 'nie istnieje'],
      ['de', 'existiert nicht'],
    ] as const) {
      const [description] = metaOf(buildHead(state({ status: 404, page: null, locale, path: '/nope' })), 'description')
      expect(description, locale).toContain(words)
    }
    expect(metaOf(buildHead(state({ status: 500, page: null })), 'description')).toEqual([])
  })

  it('marks every tag so the client can replace it', () => {
    expect(buildHead(state()).every((t) => t.attrs['data-site-head'] === '')).toBe(true)
  })
})

describe('html and body attributes', () => {
  it('takes lang and dir from the current language', () => {
    expect(getHtmlAttrs(state({ locale: 'pl' }))).toEqual({ lang: 'pl', dir: 'ltr' })
    const rtl = page({ i18n: [lang('en', 0, '/'), lang('pl', 1, '/pl', { direction: 'rtl' })] })
    expect(getHtmlAttrs(state({ locale: 'pl', page: rtl }))).toEqual({ lang: 'pl', dir: 'rtl' })
    expect(getHtmlAttrs(state({ page: null, locale: 'de' }))).toEqual({ lang: 'de', dir: 'ltr' })
  })

  it('builds the page class from id and layout', () => {
    expect(getBodyClass({ page: page() })).toBe('pid-47 layout-layout-0')
    expect(getBodyClass({ page: page({ appearance: {} }) })).toBe('pid-47 layout-default')
    expect(getBodyClass({ page: null })).toBe('pid-0 layout-default')
    expect(getBodyClass({ page: page({ appearance: { layout: 'x" onload="y' } }) })).toBe('pid-47 layout-x-onload-y')
  })
})
