import { describe, expect, it } from 'vitest'
import { pageUrls } from '../../../src/runtime/page-urls.js'
import type { PageData } from '../../../src/shared/types.js'

const site = { baseUrl: 'https://www.example.com', i18n: { default: 'en', locales: ['en', 'pl'] } }
const page = (canonical: string, i18n: unknown[] = []): PageData =>
  ({ id: 1, meta: { title: 't', canonical: { href: canonical } }, appearance: {}, content: {}, i18n }) as PageData

// One URL per page.
describe('pageUrls', () => {
  it.each([
    ['no CMS canonical', '/pl/o-nas', '', 'https://www.example.com/pl/o-nas', undefined],
    ['another host', '/pl/o-nas', 'https://cms.example/pl/o-nas', 'https://www.example.com/pl/o-nas', undefined],
    ['a trailing slash', '/pl', 'https://www.example.com/pl/', 'https://www.example.com/pl', undefined],
    ['a fragment only', '/pl', '/pl/#top', 'https://www.example.com/pl', undefined],
    ['the home page', '/', 'https://cms.example', 'https://www.example.com/', undefined],
    ['another page', '/pl/kopia', '/pl/oryginal', 'https://www.example.com/pl/oryginal', 'elsewhere'],
    ['another query', '/pl/x', '/pl/x?page=2', 'https://www.example.com/pl/x?page=2', 'elsewhere'],
    // on the site's own host, named by that page's one URL, as its own canonical and the sitemap name it
    [
      'another page on baseUrl',
      '/print',
      'https://WWW.example.com/about-us/',
      'https://www.example.com/about-us',
      'elsewhere',
    ],
    ['another site', '/a', 'https://partner.example/b', 'https://partner.example/b', 'elsewhere'],
    // written raw, such a canonical was no URL in the head (the Nu checker: illegal character in path)
    [
      'another site, spelled with spaces and a raw %',
      '/a',
      'https://Partner.example/über uns?rabatt=10%',
      'https://Partner.example/%C3%BCber%20uns?rabatt=10%25',
      'elsewhere',
    ],
  ])('canonical with %s', (_, path, cms, canonical, elsewhere) => {
    const urls = pageUrls({ path, page: page(cms), site })
    expect(urls.self).toBe(`https://www.example.com${path}`)
    expect(urls.canonical).toBe(canonical)
    expect(urls.elsewhere).toBe(elsewhere === undefined ? undefined : canonical)
  })

  it("names translations by their site paths, one per hreflang, of the site's locales only", () => {
    const entry = (languageId: number, code: string, link: string, hreflang = '') => ({
      languageId,
      twoLetterIsoCode: code,
      hreflang,
      navigationTitle: code,
      link,
      available: 1,
      active: 0,
    })
    const urls = pageUrls({
      path: '/about',
      page: page('', [
        entry(0, 'en', 'https://cms.example/about/', 'en-US'),
        entry(1, 'pl', '/pl/o-nas?x=1', 'pl-PL'),
        entry(2, 'pl', '/pl/o-nas-2', 'pl-PL'),
        entry(3, 'fr', '/fr/a-propos'),
        entry(4, 'pl', 'mailto:x@example.com', 'pl'),
      ]),
      site,
    })
    expect(urls.alternates).toEqual([
      { hreflang: 'en-US', path: '/about' },
      { hreflang: 'pl-PL', path: '/pl/o-nas' },
      { hreflang: 'x-default', path: '/about' },
    ])
  })

  // A site listing fewer languages than the API builds the others' pages under its own locale (/pl/o-nas on an
  // en and de site): such a page is none of the translations its i18n names, and its head and sitemap entry
  // named /about-us as its English version, which does not name it back, an hreflang set search engines drop.
  it('names no translations for a page that is not itself one of them', () => {
    const entry = (languageId: number, code: string, link: string) => ({
      languageId,
      twoLetterIsoCode: code,
      hreflang: '',
      link,
      available: 1,
    })
    const i18n = [entry(0, 'en', '/about-us'), entry(1, 'pl', '/pl/o-nas'), entry(2, 'de', '/de/ueber-uns')]
    const enAndDe = { ...site, i18n: { default: 'en', locales: ['en', 'de'] } }
    expect(pageUrls({ path: '/pl/o-nas', page: page('', i18n), site: enAndDe }).alternates).toEqual([])
    expect(pageUrls({ path: '/de/ueber-uns', page: page('', i18n), site: enAndDe }).alternates).toEqual([
      { hreflang: 'en', path: '/about-us' },
      { hreflang: 'de', path: '/de/ueber-uns' },
      { hreflang: 'x-default', path: '/about-us' },
    ])
  })

  // TYPO3's hreflang field is free text: `pl_PL` or a stray quote went into the head and into
  // sitemap.xml, which then failed the sitemap schema, and search engines drop such alternates.
  it('writes the hreflang as a language tag, else the language code', () => {
    const entry = (languageId: number, code: string, hreflang: string) => ({
      languageId,
      twoLetterIsoCode: code,
      hreflang,
      link: languageId === 0 ? '/about' : `/${code}/about`,
      available: 1,
    })
    const urls = pageUrls({
      path: '/about',
      page: page('', [entry(0, 'en', 'x-default'), entry(1, 'pl', ' pl_PL '), entry(2, 'de', 'de-DE "x"')]),
      site: { ...site, i18n: { default: 'en', locales: ['en', 'pl', 'de'] } },
    })
    expect(urls.alternates).toEqual([
      { hreflang: 'en', path: '/about' },
      { hreflang: 'pl-PL', path: '/pl/about' },
      { hreflang: 'de', path: '/de/about' },
      { hreflang: 'x-default', path: '/about' },
    ])
  })
})
