import { describe, expect, it } from 'vitest'
import { type BuildStore, configDigest, parseStore, renderStore, STORE_FORMAT } from '../../../src/build/store.js'
import { resolveSiteOptions } from '../../../src/config/resolve.js'

const store: BuildStore = {
  format: STORE_FORMAT,
  engine: '0.1.0+abc',
  config: 'c0',
  id: 'b1',
  clientVersion: 'v1',
  locales: { en: { initialDataUrl: '/_site/data/initial-en-1.json' } },
  pages: [
    { path: '/b', locale: 'en', uid: 2, noIndex: false, alternates: [], links: { nav: ['/'], content: [] } },
    { path: '/', locale: 'en', uid: 1, noIndex: false, alternates: [], links: { nav: [], content: ['/b'] } },
  ],
  redirects: [{ from: '/old', to: '/b', statusCode: 301, locale: 'en', kind: 'slug', uid: 2 }],
  notFound: [{ path: '/gone', status: 404 }],
  builds: [{ id: 'b1', clientVersion: 'v1', files: ['_site/assets/entry-1.js'] }],
  files: { 'index.html': 'h2', '_payload.json': 'h1' },
}

describe('build store (issue 12)', () => {
  it('renders sorted JSON that reads back as it was', () => {
    const text = renderStore(store)
    const parsed = parseStore(text)
    expect('store' in parsed && parsed.store.pages.map((p) => p.path)).toEqual(['/', '/b'])
    expect('store' in parsed && Object.keys(parsed.store.files)).toEqual(['_payload.json', 'index.html'])
    expect(renderStore({ ...store, pages: [...store.pages].reverse() })).toBe(text)
  })

  it.each([
    ['not JSON', '{"format":', 'not valid JSON'],
    ['another format', JSON.stringify({ ...store, format: 2 }), 'format 2'],
    ['a damaged page', JSON.stringify({ ...store, pages: [{ path: '/' }] }), 'damaged'],
    ['damaged files', JSON.stringify({ ...store, files: { a: 1 } }), 'damaged'],
    [
      'a foreign redirect kind',
      JSON.stringify({ ...store, redirects: [{ ...store.redirects[0], kind: 'x' }] }),
      'damaged',
    ],
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
})
