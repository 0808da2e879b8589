import { describe, expect, it } from 'vitest'
import { pageOfFile } from '../../../src/build/previous.js'
import {
  type BuildStore,
  configDigest,
  parseStore,
  renderStore,
  renderStoreParts,
  STORE_FORMAT,
} from '../../../src/build/store.js'
import { resolveSiteOptions } from '../../../src/config/resolve.js'

const store: BuildStore = {
  format: STORE_FORMAT,
  engine: '0.1.0+abc',
  config: 'c0',
  id: 'b1',
  clientVersion: 'v1',
  locales: { en: { initialDataUrl: '/_site/data/initial-en-1.json' } },
  pages: [
    {
      path: '/b',
      locale: 'en',
      uid: 2,
      noIndex: true,
      alternates: [{ hreflang: 'pl-PL', path: '/pl/b' }],
      canonical: 'https://other.example/b',
      links: { nav: ['/'], content: ['/gone'] },
      files: ['hb', 'pb'],
    },
    {
      path: '/',
      locale: 'en',
      uid: 1,
      noIndex: false,
      alternates: [],
      links: { nav: [], content: ['/b'] },
      files: ['h', 'p'],
    },
  ],
  redirects: [{ from: '/old', to: '/b', statusCode: 301, locale: 'en', kind: 'slug', uid: 2 }],
  notFound: [{ path: '/gone', status: 404 }],
  builds: [{ id: 'b1', clientVersion: 'v1', files: ['_site/assets/entry-1.js'] }],
  files: new Map([
    ['sitemap.xml', 's'],
    ['404.html', 'n'],
  ]),
}

describe('build store (issue 12)', () => {
  it('renders sorted, compact JSON that reads back as it was', () => {
    const text = renderStore(store)
    const json = JSON.parse(text)
    expect(json.paths).toEqual(['/', '/b', '/pl/b', '/gone'])
    expect(json.pages).toEqual([
      ['en', 1, 0, [], [], [1], 'h', 'p', null],
      ['en', 2, 1, [['pl-PL', 2]], [0], [3], 'hb', 'pb', 'https://other.example/b'],
    ])
    const parsed = parseStore(text)
    if (!('store' in parsed)) throw new Error(parsed.reason)
    expect(parsed.store.pages).toEqual([...store.pages].reverse())
    expect([...parsed.store.files]).toEqual([
      ['404.html', 'n'],
      ['sitemap.xml', 's'],
    ])
    expect(renderStore({ ...store, pages: [...store.pages].reverse() })).toBe(text)
    expect([...renderStoreParts(store)].length).toBeGreaterThan(3)
  })

  it('shares one string per path among the links that read back', () => {
    const parsed = parseStore(renderStore(store))
    if (!('store' in parsed)) throw new Error(parsed.reason)
    const [home, b] = parsed.store.pages
    expect(b!.links.nav[0]).toBe(home!.path)
  })

  it.each([
    ['not JSON', '{"format":', 'not valid JSON'],
    ['another format', renderStore(store).replace('"format":1', '"format":2'), 'format 2'],
    ['a damaged page', renderStore(store).replace('["en",1,0', '["en","1",0'), 'damaged'],
    ['a link out of range', renderStore(store).replace('[1],"h"', '[9],"h"'), 'damaged'],
    ['damaged files', renderStore(store).replace('"404.html":"n"', '"404.html":1'), 'damaged'],
    ['a foreign redirect kind', renderStore(store).replace('"kind":"slug"', '"kind":"x"'), 'damaged'],
  ])('refuses %s as a whole', (_, text, reason) => {
    const parsed = parseStore(text)
    expect(parsed).toEqual({ reason: expect.stringContaining(reason) })
  })

  it('records the config as a digest that follows what shapes the output, not where it goes', () => {
    const site = (options: Parameters<typeof resolveSiteOptions>[0]) => configDigest(resolveSiteOptions(options, []))
    const base = { api: { baseUrl: 'https://cms.example.com', headers: { authorization: 'secret' } } }
    const digest = site(base)
    expect(digest).toMatch(/^[0-9a-f]{16}$/)
    expect(site({ ...base, build: { outDir: 'elsewhere', concurrency: 9 } })).toBe(digest)
    expect(site({ api: { ...base.api, timeoutMs: 1 } })).toBe(digest)
    expect(site({ api: { ...base.api, baseUrl: 'https://staging.example.com' } })).not.toBe(digest)
    expect(site({ api: { ...base.api, headers: {} } })).not.toBe(digest)
    expect(site({ ...base, baseUrl: 'https://www.example.com' })).not.toBe(digest)
  })

  it.each([
    ['index.html', ['/', 0]],
    ['_payload.json', ['/', 1]],
    ['pl/o-nas/index.html', ['/pl/o-nas', 0]],
    ['de/über-uns/_payload.json', ['/de/%C3%BCber-uns', 1]],
    ['sitemap.xml', undefined],
    ['x/myindex.html', undefined],
  ])('knows the page of a file: %s', (file, page) => expect(pageOfFile(file)).toEqual(page))
})
