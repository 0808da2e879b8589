import { describe, expect, it } from 'vitest'
import {
  extractHtmlHrefs,
  extractInitialDataLinks,
  extractLinks,
  extractPageLinks,
} from '../../../src/build/crawl/links.js'
import type { InitialData, PageData } from '../../../src/shared/types.js'

describe('extractHtmlHrefs', () => {
  it.each([
    ['<a href="/a">x</a>', ['/a']],
    ["<a class='x' href='/b'>", ['/b']],
    ['<a href=/c>', ['/c']],
    ['<a href="/d?x=1&amp;y=2">', ['/d?x=1&y=2']],
    ['<a href="/&#101;&#x66;">', ['/ef']],
    ['<p>no links, data-href="/no"</p>', []],
    ['<a HREF="/e">', ['/e']],
    ['<a title="a > b" href="/g">', ['/g']],
    ['<p><code>&lt;a href="/from-code-sample"&gt;</code> and href="/from-plain-text"</p>', []],
  ])('%s', (html, hrefs) => expect(extractHtmlHrefs(html)).toEqual(hrefs))
})

describe('extractLinks', () => {
  it('collects link, href and bodytext links at any depth', () => {
    const data = {
      navigation: [{ title: 'A', link: '/a', children: [{ title: 'B', link: '/a/b' }] }],
      content: { headerLink: { href: '/c', linkText: 'c' }, bodytext: '<a href="/d">d</a>' },
      bullets: { bodytext: ['<a href="/e">e</a>', ['<a href="/f">f</a>']] },
      other: { publicUrl: '/fileadmin/x.jpg', record: 'https://typo3/edit' },
    }
    expect(extractLinks(data).sort()).toEqual(['/a', '/a/b', '/c', '/d', '/e', '/f'])
  })

  it('skips language entries that name no page (available: 0)', () => {
    const i18n = [
      { languageId: 0, twoLetterIsoCode: 'en', link: '/about', available: 1 },
      { languageId: 1, twoLetterIsoCode: 'pl', link: '/pl/missing', available: 0 },
    ]
    expect(extractLinks({ i18n })).toEqual(['/about'])
  })

  it('stops at a safe depth on deeply nested data', () => {
    let deep: Record<string, unknown> = { link: '/bottom' }
    for (let i = 0; i < 500; i++) deep = { child: deep }
    expect(() => extractLinks(deep)).not.toThrow()
    expect(extractLinks(deep)).toEqual([])
  })
})

describe('extractPageLinks', () => {
  it('separates content links from navigation-like places', () => {
    const page = {
      id: 1,
      meta: {},
      appearance: {},
      breadcrumbs: [{ title: 'Home', link: '/' }],
      contextMenu: { navigation: [{ title: 'Ctx', link: '/ctx' }], additionalLink: { href: '/extra' } },
      i18n: [{ languageId: 1, twoLetterIsoCode: 'pl', navigationTitle: 'PL', link: '/pl/x', available: 1, active: 0 }],
      content: {
        colPos0: [
          { id: 5, type: 'text', content: { bodytext: '<a href="/in-text">t</a>', headerLink: { href: '/hl' } } },
        ],
        colPos1: [{ id: 6, type: 'menu_pages', content: { menu: [{ title: 'M', link: '/menu' }] } }],
      },
    } as unknown as PageData
    const links = extractPageLinks(page)
    expect(links.nav.sort()).toEqual(['/', '/ctx', '/extra', '/pl/x'])
    // per content element, so that a broken link names the element to fix
    expect(links.content.map(({ elementUid, hrefs }) => [elementUid, hrefs.sort()])).toEqual([
      [5, ['/hl', '/in-text']],
      [6, ['/menu']],
    ])
  })

  it('walks every navigation tree of initial data', () => {
    const data = {
      navigation: [{ title: 'Home', link: '/', children: [{ title: 'A', link: '/a' }] }],
      featuredNavigation: [{ title: 'F', link: '/f' }],
      minorNavigation: [{ title: 'M', link: '/m' }],
      footerNavigation: [{ title: 'Ft', link: '/ft' }],
      socialMenu: [{ title: 'S', link: 'https://social.example/x' }],
      i18n: [{ languageId: 1, twoLetterIsoCode: 'pl', navigationTitle: 'PL', link: '/pl/', available: 1, active: 0 }],
    } as unknown as InitialData
    expect(extractInitialDataLinks(data).sort()).toEqual([
      '/',
      '/a',
      '/f',
      '/ft',
      '/m',
      '/pl/',
      'https://social.example/x',
    ])
  })
})
