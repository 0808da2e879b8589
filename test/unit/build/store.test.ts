import { describe, expect, it } from 'vitest'
import { PageTable, StringPool } from '../../../src/build/page-table.js'
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
  pages: PageTable.of([
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
  ]),
  redirects: [{ from: '/old', to: '/b', statusCode: 301, locale: 'en', kind: 'slug', uid: 2 }],
  notFound: [{ path: '/gone', status: 404 }],
  builds: [{ id: 'b1', clientVersion: 'v1', files: ['_site/assets/entry-1.js'] }],
  files: new Map([
    ['sitemap.xml', 's'],
    ['404.html', 'n'],
  ]),
}

describe('build store (issue 12)', () => {
  it('renders sorted, compact JSON Lines that read back as they were', () => {
    const text = renderStore(store)
    const lines = text.split('\n')
    expect(lines.at(-1)).toBe('')
    const [first, ...rest] = lines.slice(0, -1).map((line) => JSON.parse(line))
    expect(first).toMatchObject({ format: STORE_FORMAT, id: 'b1', paths: 4, pages: 2 })
    expect(first.files).toEqual({ '404.html': 'n', 'sitemap.xml': 's' })
    expect(rest).toEqual([
      '/',
      '/b',
      '/pl/b',
      '/gone',
      ['en', 1, 0, [], [], [1], 'h', 'p', null],
      ['en', 2, 1, [['pl-PL', 2]], [0], [3], 'hb', 'pb', 'https://other.example/b'],
    ])
    const parsed = parseStore(text)
    if (!('store' in parsed)) throw new Error(parsed.reason)
    expect([...parsed.store.pages]).toEqual([...store.pages].reverse())
    expect([...parsed.store.files]).toEqual([
      ['404.html', 'n'],
      ['sitemap.xml', 's'],
    ])
    expect(renderStore({ ...store, pages: PageTable.of([...store.pages].reverse()) })).toBe(text)
  })

  it('writes a large store in parts and reads it back through a shared pool', () => {
    const pages = Array.from({ length: 1200 }, (_, i) => ({
      path: `/p${i}`,
      locale: 'en',
      uid: i + 1,
      noIndex: false,
      alternates: [{ hreflang: 'en-US', path: `/p${i}` }],
      links: { nav: ['/p0'], content: [`/p${(i + 1) % 1200}`, '/elsewhere'] },
      files: [`h${i}`, `p${i}`] as [string, string],
    }))
    const big = { ...store, pages: PageTable.of(pages) }
    expect([...renderStoreParts(big)].length).toBeGreaterThan(3)
    const pool = new StringPool()
    const shared = pool.intern('/p7')
    const parsed = parseStore(renderStore(big), pool)
    if (!('store' in parsed)) throw new Error(parsed.reason)
    expect(parsed.store.pages.size).toBe(1200)
    expect(parsed.store.pages.get('/p7')).toEqual(pages[7])
    expect(parsed.store.pages.get('/p6')!.links.content[0]).toBe(shared)
    expect(parsed.store.pages.fileHash('/p1199', 1)).toBe('p1199')
    // as previous.ts reads it: the file's bytes, line by line
    const fromBytes = parseStore(Buffer.from(renderStore(big)))
    if (!('store' in fromBytes)) throw new Error(fromBytes.reason)
    expect([...fromBytes.store.pages]).toEqual([...pages].sort((a, b) => (a.path < b.path ? -1 : 1)))
    // lines are parsed in batches: a damaged line far into the file refuses the whole store as well
    expect(parseStore(renderStore(big).replace('"p1100"', '1100'))).toEqual({
      reason: expect.stringContaining('damaged'),
    })
  })

  it('shares one string per path among the links that read back', () => {
    const parsed = parseStore(renderStore(store))
    if (!('store' in parsed)) throw new Error(parsed.reason)
    const [home, b] = parsed.store.pages
    expect(b!.links.nav[0]).toBe(home!.path)
  })

  it.each([
    ['not JSON', '{"format":', 'does not start with a JSON object'],
    ['another format', renderStore(store).replace('"format":2', '"format":1'), 'format 1'],
    ['a missing page line', renderStore(store).replace(/\n\["en",2.*\n$/, '\n'), 'damaged'],
    ['a line too many', `${renderStore(store)}"/x"\n`, 'damaged'],
    ['two values on one line', renderStore(store).replace('\n"/b"\n', ',"/b"\n'), 'damaged'],
    ['an empty line', renderStore(store).replace('\n"/b"\n', '\n\n"/b"\n'), 'damaged'],
    ['a page twice', renderStore(store).replace('\n"/b"\n', '\n"/"\n'), 'damaged'],
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
