import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { currentEngine, pageOfFile } from '../../../src/build/incremental/previous.js'
import {
  type BuildStore,
  configDigest,
  parseStore,
  renderStore,
  renderStoreParts,
  STORE_FORMAT,
  type StoreLines,
} from '../../../src/build/incremental/store.js'
import { hashContents } from '../../../src/build/output/write.js'
import { PageTable, StringPool } from '../../../src/build/page-table.js'
import { resolveSiteOptions } from '../../../src/config/resolve.js'

/** Content hashes as a build records them (16 hex digits). */
const HASH = {
  h: hashContents('h'),
  p: hashContents('p'),
  hb: hashContents('hb'),
  pb: hashContents('pb'),
  n: hashContents('n'),
  s: hashContents('s'),
}

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
      fileRefs: ['/fileadmin/a.jpg', 'https://cdn.example/b.png'],
      linkDigest: HASH.s,
      files: [HASH.hb, HASH.pb],
    },
    {
      path: '/',
      locale: 'en',
      uid: 1,
      noIndex: false,
      alternates: [],
      links: { nav: [], content: ['/b'] },
      files: [HASH.h, HASH.p],
    },
  ]),
  redirects: [{ from: '/old', to: '/b', statusCode: 301, locale: 'en', kind: 'slug', uid: 2 }],
  notFound: [{ path: '/gone', status: 404 }],
  builds: [{ id: 'b1', clientVersion: 'v1', files: ['_site/assets/entry-1.js'] }],
  files: new Map([
    ['sitemap.xml', HASH.s],
    ['404.html', HASH.n],
  ]),
}

/** The site that reads the stores of these tests. */
const READER = { locales: ['en', 'pl'], maxPaths: 10_000 }

describe('build store', () => {
  it('renders sorted, compact JSON Lines that read back as they were', () => {
    const text = renderStore(store)
    const lines = text.split('\n')
    expect(lines.at(-1)).toBe('')
    const [first, ...rest] = lines.slice(0, -1).map((line) => JSON.parse(line))
    expect(first).toMatchObject({ format: STORE_FORMAT, id: 'b1', paths: 4, pages: 2 })
    expect(first.files).toEqual({ '404.html': HASH.n, 'sitemap.xml': HASH.s })
    expect(rest).toEqual([
      '/',
      '/b',
      '/pl/b',
      '/gone',
      ['en', 1, 0, [], [], [1], HASH.h, HASH.p, null, [], ''],
      [
        'en',
        2,
        1,
        [['pl-PL', 2]],
        [0],
        [3],
        HASH.hb,
        HASH.pb,
        'https://other.example/b',
        ['/fileadmin/a.jpg', 'https://cdn.example/b.png'],
        HASH.s,
      ],
    ])
    const parsed = parseStore(text, READER)
    if (!('store' in parsed)) throw new Error(parsed.reason)
    expect([...parsed.store.pages]).toEqual([...store.pages].reverse())
    expect([...parsed.store.files]).toEqual([
      ['404.html', HASH.n],
      ['sitemap.xml', HASH.s],
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
      files: [hashContents(`h${i}`), hashContents(`p${i}`)] as [string, string],
    }))
    const big = { ...store, pages: PageTable.of(pages) }
    expect([...renderStoreParts(big)].length).toBeGreaterThan(3)
    const pool = new StringPool()
    const shared = pool.intern('/p7')
    const parsed = parseStore(renderStore(big), { ...READER, pool })
    if (!('store' in parsed)) throw new Error(parsed.reason)
    expect(parsed.store.pages.size).toBe(1200)
    expect(parsed.store.pages.get('/p7')).toEqual(pages[7])
    expect(parsed.store.pages.get('/p6')!.links.content[0]).toBe(shared)
    expect(parsed.store.pages.fileHash('/p1199', 1)).toBe(hashContents('p1199'))
    // as previous.ts reads it: the file's bytes, line by line
    const fromBytes = parseStore(Buffer.from(renderStore(big)), READER)
    if (!('store' in fromBytes)) throw new Error(fromBytes.reason)
    expect([...fromBytes.store.pages]).toEqual([...pages].sort((a, b) => (a.path < b.path ? -1 : 1)))
    // lines are parsed in batches: a damaged line far into the file refuses the whole store as well
    expect(parseStore(renderStore(big).replace(`"${hashContents('p1100')}"`, '1100'), READER)).toEqual({
      reason: expect.stringContaining('damaged'),
    })
  })

  it("writes again as they were the parts of a builder's last store whose pages did not change", () => {
    const pool = new StringPool()
    const page = (i: number, text = 'h') => ({
      path: `/p${String(i).padStart(4, '0')}`,
      locale: 'en',
      uid: i + 1,
      noIndex: false,
      alternates: [],
      links: { nav: ['/p0000'], content: [`/p${String((i + 1) % 1200).padStart(4, '0')}`] },
      files: [hashContents(`${text}${i}`), hashContents(`p${i}`)] as [string, string],
    })
    const pages = Array.from({ length: 1200 }, (_, i) => page(i))
    const first = { ...store, pages: PageTable.of(pages, pool) }
    let last: StoreLines | undefined
    const written = renderStore(first, { done: (lines) => (last = lines) })
    expect(written).toBe(renderStore(first))
    expect(last!.pages).toEqual(pages.map((p) => p.path).sort())
    expect(last!.pageParts).toHaveLength(3)
    // one page changed (its html): its part is made again, the other two are the last store's own bytes
    const changed = {
      ...store,
      id: 'b2',
      pages: PageTable.of([...pages.slice(0, 700), page(700, 'x'), ...pages.slice(701)], pool),
    }
    let next: StoreLines | undefined
    const text = renderStore(changed, { last, done: (lines) => (next = lines) })
    expect(text).toBe(renderStore(changed))
    expect(next!.pathParts).toEqual(last!.pathParts)
    expect(next!.pageParts.map((part, k) => part === last!.pageParts[k])).toEqual([true, false, true])
    // a page more: every path index after it moves, so no line is taken
    const grown = { ...store, pages: PageTable.of([...pages, page(1200)], pool) }
    let third: StoreLines | undefined
    expect(renderStore(grown, { last: next, done: (lines) => (third = lines) })).toBe(renderStore(grown))
    expect(third!.pageParts.some((part, k) => part === next!.pageParts[k])).toBe(false)
    // a store over another pool takes nothing from it
    const other = { ...store, pages: PageTable.of(pages) }
    expect(renderStore(other, { last })).toBe(renderStore(other))
  })

  it('after a kept-whole build, compares only the parts of the pages built again and takes the last listing', () => {
    const pool = new StringPool()
    const page = (i: number, text = 'h', link = `/p${String((i + 1) % 1200).padStart(4, '0')}`) => ({
      path: `/p${String(i).padStart(4, '0')}`,
      locale: 'en',
      uid: i + 1,
      noIndex: false,
      alternates: [],
      links: { nav: ['/p0000'], content: [link] },
      files: [hashContents(`${text}${i}`), hashContents(`p${i}`)] as [string, string],
    })
    const pages = Array.from({ length: 1200 }, (_, i) => page(i))
    const first = { ...store, pages: PageTable.of(pages, pool) }
    let last: StoreLines | undefined
    renderStore(first, { done: (lines) => (last = lines) })
    // as keep-whole.ts makes it: every row copied from the last table, page 700's as built again
    const keptWhole = (rebuilt: ReturnType<typeof page>) => {
      const pages = new PageTable(pool)
      pages.copyAllFrom(first.pages, PageTable.of([rebuilt], pool))
      return { store: { ...store, id: 'b2', pages }, kept: { from: first.pages, rebuilt: new Set([rebuilt.path]) } }
    }
    const edited = keptWhole(page(700, 'x'))
    let next: StoreLines | undefined
    let listed: readonly string[] | undefined
    const text = renderStore(edited.store, {
      last,
      kept: edited.kept,
      done: (lines) => (next = lines),
      listed: (sorted) => (listed = sorted),
    })
    expect(text).toBe(renderStore(edited.store))
    expect(next!.paths).toBe(last!.paths)
    // the pages' paths, sorted, are the last listing's own
    expect(listed).toBe(last!.pages)
    expect(listed).toEqual(pages.map((p) => p.path))
    expect(next!.pageParts.map((part, k) => part === last!.pageParts[k])).toEqual([true, false, true])
    // the page built again links elsewhere now: the listing is made again, to the same bytes as from scratch
    const relinked = keptWhole(page(700, 'x', '/new'))
    expect(renderStore(relinked.store, { last, kept: relinked.kept })).toBe(renderStore(relinked.store))
    // rows copied from another table than the last store's: nothing is taken on trust
    const other = { ...relinked.kept, from: PageTable.of([page(1)], pool) }
    expect(renderStore(relinked.store, { last, kept: other })).toBe(renderStore(relinked.store))
  })

  it('shares one string per path among the links that read back', () => {
    const parsed = parseStore(renderStore(store), READER)
    if (!('store' in parsed)) throw new Error(parsed.reason)
    const [home, b] = parsed.store.pages
    expect(b!.links.nav[0]).toBe(home!.path)
  })

  it.each([
    ['not JSON', '{"format":', 'does not start with a JSON object'],
    ['another format', renderStore(store).replace(`"format":${STORE_FORMAT}`, '"format":1'), 'format 1'],
    ['a missing page line', renderStore(store).replace(/\n\["en",2.*\n$/, '\n'), 'damaged'],
    ['a line too many', `${renderStore(store)}"/x"\n`, 'damaged'],
    ['two values on one line', renderStore(store).replace('\n"/b"\n', ',"/b"\n'), 'damaged'],
    ['an empty line', renderStore(store).replace('\n"/b"\n', '\n\n"/b"\n'), 'damaged'],
    ['a page twice', renderStore(store).replace('\n"/b"\n', '\n"/"\n'), 'damaged'],
    ['a damaged page', renderStore(store).replace('["en",1,0', '["en","1",0'), 'damaged'],
    ['a page of a locale the site has not', renderStore(store).replace('["en",1,0', '["fr",1,0'), 'damaged'],
    ['a link out of range', renderStore(store).replace(`[1],"${HASH.h}"`, `[9],"${HASH.h}"`), 'damaged'],
    ['damaged files', renderStore(store).replace(`"404.html":"${HASH.n}"`, '"404.html":1'), 'bad file entry'],
    ['a hash that is no hash', renderStore(store).replace(`"${HASH.h}"`, '"../x"'), 'damaged'],
    [
      'a file reference with a space',
      renderStore(store).replace('"/fileadmin/a.jpg"', '"/fileadmin/a.jpg https://evil.example"'),
      'damaged',
    ],
    ['a file reference of no scheme', renderStore(store).replace('"/fileadmin/a.jpg"', '"javascript:x"'), 'damaged'],
    ['file references that are no list', renderStore(store).replace(/,\[\],""\]\n/, ',"/a.jpg",""]\n'), 'damaged'],
    ['a link digest that is no digest', renderStore(store).replace(/,\[\],""\]\n/, ',[],"../x"]\n'), 'damaged'],
    ['a foreign redirect kind', renderStore(store).replace('"kind":"slug"', '"kind":"x"'), 'bad entry'],
    // hostile entries: each would make a build write or delete where it must not, or publish a rule it never wrote
    [
      'a redirect source with a newline',
      renderStore(store).replace('"from":"/old"', '"from":"/old\\n/* https://evil.example/:splat 302"'),
      'bad entry',
    ],
    [
      'a redirect target with a space',
      renderStore(store).replace('"to":"/b"', '"to":"/b https://evil.example"'),
      'bad entry',
    ],
    ['a redirect that proxies (200)', renderStore(store).replace('"statusCode":301', '"statusCode":200'), 'bad entry'],
    ['a redirect at /robots.txt', renderStore(store).replace('"from":"/old"', '"from":"/robots.txt"'), 'bad entry'],
    [
      'a redirect at the manifest',
      renderStore(store).replace('"from":"/old"', '"from":"/_site/builds/latest.json"'),
      'bad entry',
    ],
    ['a redirect to javascript:', renderStore(store).replace('"to":"/b"', '"to":"javascript:alert(1)"'), 'bad entry'],
    ['a page path with ..', renderStore(store).replace('\n"/b"\n', '\n"/../b"\n'), 'bad page path'],
    ['a page path with NUL', renderStore(store).replace('\n"/b"\n', '\n"/b\\u0000"\n'), 'bad page path'],
    ['a page at a reserved name', renderStore(store).replace('\n"/b"\n', '\n"/b/index.html"\n'), 'bad page path'],
    ['an absolute file path', renderStore(store).replace('"404.html":', '"/etc/passwd":'), 'bad file entry'],
    ['a file path with ..', renderStore(store).replace('"404.html":', '"../outside":'), 'bad file entry'],
    [
      'a kept build file outside the assets',
      renderStore(store).replace('"_site/assets/entry-1.js"', '"../x.js"'),
      'bad entry',
    ],
    ['more paths than a build may crawl', renderStore(store).replace('"paths":4', '"paths":10001'), 'bad entry'],
  ])('refuses %s as a whole', (_, text, reason) => {
    const parsed = parseStore(text, READER)
    expect(parsed).toEqual({ reason: expect.stringContaining(reason) })
  })

  it('says a state of locales the site no longer lists is of another configuration, not a bad entry', () => {
    // i18n.locales dropped 'en' since that build: a configuration change, no damage to report as such
    expect(parseStore(renderStore(store), { ...READER, locales: ['pl'] })).toEqual({
      reason: expect.stringContaining('of a configuration with locales i18n.locales no longer lists (en)'),
      unlistedLocales: ['en'],
    })
    const foreign = renderStore(store).replace('"locales":{"en":', '"locales":{"../x":')
    expect(parseStore(foreign, READER)).toEqual({ reason: expect.stringContaining('bad entry') })
  })

  it('says a state whose redirect leaves for what is now baseUrl is of another configuration', () => {
    // built without baseUrl, the API's redirect to https://www.example.com/b was external; now it is this site's
    const text = renderStore(store)
      .replace('"to":"/b"', '"to":"https://www.example.com/b"')
      .replace('"kind":"slug","uid":2', '"kind":"api"')
    expect(text).toContain('"to":"https://www.example.com/b","statusCode":301,"locale":"en","kind":"api"}')
    expect(parseStore(text, READER)).toHaveProperty('store')
    expect(parseStore(text, { ...READER, baseUrl: 'https://www.example.com' })).toEqual({
      reason: expect.stringContaining('of a configuration with another baseUrl'),
    })
  })

  it('reads back every redirect status a build writes', () => {
    for (const code of [301, 302, 303, 307, 308]) {
      const parsed = parseStore(renderStore(store).replace('"statusCode":301', `"statusCode":${code}`), READER)
      if (!('store' in parsed)) throw new Error(`${code}: ${parsed.reason}`)
      expect(parsed.store.redirects.map((r) => r.statusCode)).toContain(code)
    }
  })

  it('checks counts before it allocates for them, and refuses an over-long line before decoding it', () => {
    const huge = renderStore(store).replace('"paths":4', '"paths":2000000000')
    expect(parseStore(huge, READER)).toEqual({ reason: expect.stringContaining('bad entry') })
    const [first, ...rest] = renderStore(store).split('\n')
    const long = [first, `"/${'a'.repeat(300 * 1024)}"`, ...rest.slice(1)].join('\n')
    expect(parseStore(long, READER)).toEqual({ reason: expect.stringContaining('longer than a state ever writes') })
  })

  it('drops the recorded hash of a file the disk does not have, and lists it: the build writes it again', () => {
    const disk = new Set(['sitemap.xml', 'index.html', 'b/_payload.json'])
    const parsed = parseStore(renderStore(store), { ...READER, disk: new Map([...disk].map((p) => [p, 1])) })
    if (!('store' in parsed)) throw new Error(parsed.reason)
    expect(parsed.missing.sort()).toEqual(['404.html', '_payload.json', 'b/index.html'])
    expect([...parsed.store.files]).toEqual([['sitemap.xml', HASH.s]])
    expect(parsed.store.pages.fileHash('/b', 0)).toBeUndefined()
    expect(parsed.store.pages.fileHash('/b', 1)).toBe(HASH.pb)
    expect(parsed.store.pages.fileHash('/', 0)).toBe(HASH.h)
    expect(parsed.store.pages.fileHash('/', 1)).toBeUndefined()
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

  it('covers no secret: header values, the API password and query values do not change the digest', () => {
    const site = (options: Parameters<typeof resolveSiteOptions>[0]) => configDigest(resolveSiteOptions(options, []))
    const api = {
      baseUrl: 'https://u:weak@cms.example.com/api?token=abc',
      headers: { authorization: 'Basic d2Vhaw==' },
    }
    const digest = site({ api })
    expect(site({ api: { ...api, headers: { authorization: 'Basic c3Ryb25n' } } })).toBe(digest)
    expect(site({ api: { ...api, baseUrl: 'https://u:strong@cms.example.com/api?token=xyz' } })).toBe(digest)
    expect(site({ api: { ...api, headers: { 'x-api-key': 'Basic d2Vhaw==' } } })).not.toBe(digest)
  })

  it.each([
    ['index.html', ['/', 0]],
    ['_payload.json', ['/', 1]],
    ['pl/o-nas/index.html', ['/pl/o-nas', 0]],
    ['de/über-uns/_payload.json', ['/de/%C3%BCber-uns', 1]],
    // a page at /a%25b is written to the folder a%b: its files are that page's, not a malformed escape
    ['a%b/index.html', ['/a%25b', 0]],
    ['%2e%2e/x/_payload.json', ['/%252e%252e/x', 1]],
    ['sitemap.xml', undefined],
    ['x/myindex.html', undefined],
  ])('knows the page of a file: %s', (file, page) => expect(pageOfFile(file)).toEqual(page))
})

describe('the engine identity', () => {
  it('changes with the media code, which lays out the images of every page', async () => {
    const root = await mkdtemp(join(tmpdir(), 'site-engine-'))
    try {
      for (const dir of ['api', 'build', 'hydration', 'media', 'render', 'runtime', 'shared'])
        await mkdir(join(root, dir))
      await writeFile(join(root, 'media/apply.js'), 'export const srcSet = true\n')
      const before = currentEngine(root)
      // an engine whose images are laid out otherwise: pages it rendered are not kept by an --only build
      await writeFile(join(root, 'media/apply.js'), 'export const srcSet = false\n')
      expect(currentEngine(root)).not.toBe(before)
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
