/** Hostile paths from the API are refused, listed, and never fetched or written (safety). */

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildResult } from '../../src/build/types.js'
import { type BuildTools, buildSite, loadBuildTools, REPO_ROOT, readTree } from './build-helpers.js'

const page = (id: number, title: string, extra: Record<string, unknown> = {}) => ({
  id,
  meta: { title },
  appearance: { backendLayout: 'default' },
  content: {},
  ...extra,
})
const text = (id: number, bodytext: string) => ({
  id,
  type: 'text',
  colPos: 0,
  appearance: { frameClass: 'default' },
  content: { header: '', bodytext },
})
const LONG = `/${'a'.repeat(2000)}`

const HOSTILE_LINKS = [
  '/../../etc/passwd',
  '/a%2fb',
  '/x%00y',
  '/back\\slash',
  LONG,
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '/sitemap.xml',
  '/_site/builds/latest.json',
]

/** Path as requested -> [status, body]. */
const ANSWERS: Record<string, [number, unknown]> = {
  '/?type=834': [
    200,
    {
      navigation: [
        { title: 'Home', link: '/', children: HOSTILE_LINKS.map((link, i) => ({ title: `Bad ${i}`, link })) },
        { title: 'Unicode', link: '/de/über-uns/' },
        { title: 'Cycle', link: '/cycle-a' },
        { title: 'Other host', link: 'https://evil.example/steal' },
        { title: 'Protocol-relative', link: '//evil.example/x' },
        {
          title: 'Redirects',
          link: '/redirect-js',
          children: [
            { title: 'r2', link: '/redirect-dots' },
            { title: 'r3', link: '/redirect-external' },
          ],
        },
      ],
      i18n: [],
    },
  ],
  '/': [
    200,
    page(1, 'Home', {
      content: { colPos0: [text(10, '<p><a href="/%2e%2e/%2e%2e/secret">up</a> <a href="/missing">gone</a></p>')] },
    }),
  ],
  '/de/%C3%BCber-uns': [200, page(2, 'Über uns')],
  '/cycle-a': [200, page(3, 'A', { breadcrumbs: [{ title: 'B', link: '/cycle-b' }] })],
  '/cycle-b': [200, page(4, 'B', { breadcrumbs: [{ title: 'A', link: '/cycle-a/' }] })],
  '/redirect-js': [200, { redirectUrl: 'javascript:alert(1)', statusCode: 301 }],
  '/redirect-dots': [200, { redirectUrl: '/../../etc/passwd', statusCode: 301 }],
  '/redirect-external': [200, { redirectUrl: 'https://other.example/landing?a=1&b=2', statusCode: 302 }],
}

let server: Server
let apiUrl: string
const requested: string[] = []
let tools: BuildTools
let dir: string
let result: BuildResult

beforeAll(async () => {
  server = createServer((req, res) => {
    requested.push(req.url ?? '')
    const [status, body] = ANSWERS[req.url ?? ''] ?? [404, { error: 'not found' }]
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  tools = await loadBuildTools()
  dir = await mkdtemp(join(tmpdir(), 'site-build-hostile-'))
  result = await buildSite({
    apiUrl,
    outDir: join(dir, 'out'),
    tools,
    user: {
      baseUrl: 'https://www.example.com',
      i18n: { default: 'en', locales: ['en'] },
      build: { redirectPages: true },
    },
  })
}, 60_000)

afterAll(async () => {
  await new Promise((done) => server?.close(done))
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('hostile paths', () => {
  it('still builds, with every refused item listed', () => {
    expect(result.failures).toEqual([])
    const reasons = new Map(result.skipped.map((s) => [s.item, s.reason]))
    expect(reasons.get('/../../etc/passwd')).toBe('dot segment')
    expect(reasons.get('/a%2fb')).toBe('encoded slash or NUL')
    expect(reasons.get('/x%00y')).toBe('encoded slash or NUL')
    expect(reasons.get(`${LONG.slice(0, 200)}…`)).toBe('longer than 1024 characters')
    // unsafe schemes are already dropped (and reported) by the render core's prepare step
    const prepareProblems = result.skipped.filter((s) => s.item === 'initial data (en)').map((s) => s.reason)
    expect(prepareProblems).toContainEqual(expect.stringContaining('unsafe link "javascript:alert(1)" removed'))
    expect(prepareProblems).toContainEqual(expect.stringContaining('unsafe link "data:text/html'))
    // a backslash before the query, read by a browser as a slash, can lead to another host than the text shows
    expect(prepareProblems).toContainEqual(expect.stringContaining('unsafe link "/back\\\\slash" removed'))
    expect(reasons.get('/sitemap.xml')).toBe('collides with a file the build writes')
    expect(reasons.get('/_site/builds/latest.json')).toBe('internal path')
    expect(reasons.get('/%2e%2e/%2e%2e/secret')).toBe('dot segment')
    expect(reasons.get('/redirect-js -> javascript:alert(1)')).toBe('unsafe URL scheme')
    expect(reasons.get('/redirect-dots -> /../../etc/passwd')).toBe('dot segment')
    // Each with a stable kind, and the CMS records it came from
    const kinds = new Map(result.skipped.map((s) => [s.item, s.kind]))
    expect(kinds.get('/../../etc/passwd')).toBe('UNSAFE_LINK')
    expect(kinds.get('/sitemap.xml')).toBe('RESERVED_PATH')
    expect(kinds.get('/redirect-js -> javascript:alert(1)')).toBe('REDIRECT_REFUSED')
    expect(result.skipped.filter((s) => s.item === 'initial data (en)').map((s) => s.kind)).toContain('UNSAFE_LINK')
    expect(result.skipped).toContainEqual(
      expect.objectContaining({ item: '/%2e%2e/%2e%2e/secret', from: '/', pageUid: 1, elementUid: 10 }),
    )
  })

  it('never requests a refused or external path', () => {
    expect([...requested].sort()).toEqual(
      [
        '/?type=834',
        '/__site-404__',
        '/',
        '/de/%C3%BCber-uns',
        '/cycle-a',
        '/cycle-b',
        '/missing',
        '/redirect-js',
        '/redirect-dots',
        '/redirect-external',
      ].sort(),
    )
  })

  it('writes nothing outside the output folder, and only expected files inside it', async () => {
    expect(await readdir(dir)).toEqual(['out'])
    // Besides the engine's files and sitemap/robots: public/ copied as it is (whatever the demo keeps there).
    const copied = new Set(await readdir(join(REPO_ROOT, 'public'), { recursive: true }))
    const files = [...(await readTree(join(dir, 'out'))).keys()].filter(
      (f) => !f.startsWith('_site/') && !copied.has(f) && !/^[^/]+\.(txt|xml)$/.test(f),
    )
    expect(files.sort()).toEqual(
      [
        '404.html',
        '_payload.json',
        '_redirects',
        'cycle-a/_payload.json',
        'cycle-a/index.html',
        'cycle-b/_payload.json',
        'cycle-b/index.html',
        'de/über-uns/_payload.json',
        'de/über-uns/index.html',
        'index.html',
        'redirect-external/_payload.json',
        'redirect-external/index.html',
      ].sort(),
    )
  })

  it('lists a broken link found only in content as skipped, not as a failure', () => {
    expect(result.skipped).toContainEqual({
      kind: 'BROKEN_CONTENT_LINK',
      item: '/missing',
      status: 404,
      reason: 'the API answers 404',
      from: '/',
      pageUid: 1,
      elementUid: 10,
    })
  })

  it('writes external redirects as links to http(s) targets only', async () => {
    const html = await readFile(join(dir, 'out/redirect-external/index.html'), 'utf8')
    expect(html).toContain('<meta http-equiv="refresh" content="0; url=https://other.example/landing?a=1&amp;b=2">')
    expect(await readFile(join(dir, 'out/_redirects'), 'utf8')).toBe(
      '/redirect-external https://other.example/landing?a=1&b=2 302\n',
    )
  })
})

/**
 * JSON objects with their own `"toString"`/`"valueOf"` keys where a number or a string is expected: String() or
 * Number() of such an object throws. Each is repaired as a wrongly typed value, and the build succeeds.
 */
describe('objects with their own toString key', () => {
  const POISON = { toString: 'x', valueOf: 'x' }
  const language = { twoLetterIsoCode: 'en', languageId: POISON, title: POISON, link: '/', active: 1 }
  const OBJECT_ANSWERS: Record<string, unknown> = {
    '/?type=834': {
      navigation: [
        { title: 'Home', link: '/', children: [{ title: 'Old', link: '/old' }] },
        { title: 'List', link: '/list' },
      ],
      i18n: [language],
    },
    '/': page(1, 'Home', { i18n: [language] }),
    '/old': { redirectUrl: '/list', statusCode: POISON },
    '/list': page(2, 'List', {
      seo: {
        meta: [
          { 'http-equiv': POISON, content: '0' },
          { property: 'og:image', content: 'javascript:alert(1)' },
          { name: 'twitter:image', content: ' JaVaScRiPt:alert(1)' },
        ],
      },
      content: {
        colPos0: [{ id: 20, type: 'bullets', colPos: 0, content: { bulletsType: 0, bodytext: ['one', POISON, 2] } }],
      },
    }),
  }
  let objectServer: Server
  let objectDir: string
  let built: BuildResult

  beforeAll(async () => {
    objectServer = createServer((req, res) => {
      const body = OBJECT_ANSWERS[req.url ?? '']
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body ?? { error: 'not found' }))
    })
    await new Promise<void>((done) => objectServer.listen(0, '127.0.0.1', done))
    objectDir = await mkdtemp(join(tmpdir(), 'site-build-objects-'))
    built = await buildSite({
      apiUrl: `http://127.0.0.1:${(objectServer.address() as AddressInfo).port}`,
      outDir: join(objectDir, 'out'),
      tools,
      user: { baseUrl: 'https://www.example.com', i18n: { default: 'en', locales: ['en'] } },
    })
  }, 60_000)

  afterAll(async () => {
    await new Promise((done) => objectServer?.close(done))
    if (objectDir) await rm(objectDir, { recursive: true, force: true })
  })

  it('builds every page: the redirect as a 301, the language titled by its code, the odd bullet empty', async () => {
    expect(built.failures).toEqual([])
    expect(await readFile(join(objectDir, 'out/_redirects'), 'utf8')).toBe('/old /list 301\n')
    const html = await readFile(join(objectDir, 'out/list/index.html'), 'utf8')
    expect(html).toMatch(/<li>one<\/li><li><\/li><li>2<\/li>/)
    const home = JSON.parse(await readFile(join(objectDir, 'out/_payload.json'), 'utf8')) as Record<string, unknown>
    expect(JSON.stringify(home)).toContain('"navigationTitle":"en"')
    expect(built.skipped).toContainEqual(
      expect.objectContaining({
        kind: 'UNSAFE_MARKUP',
        reason: expect.stringContaining('http-equiv "object" refused'),
      }),
    )
  })

  it('drops a share image tag of seo.meta whose content is a script URL, and lists it', async () => {
    const html = await readFile(join(objectDir, 'out/list/index.html'), 'utf8')
    expect(html).not.toMatch(/javascript:/i)
    const unsafe = built.skipped.filter((s) => s.kind === 'UNSAFE_LINK' && s.item === '/list').map((s) => s.reason)
    expect(unsafe).toContainEqual(expect.stringContaining('seo.meta og:image: unsafe link "javascript:alert(1)"'))
    expect(unsafe).toContainEqual(expect.stringContaining('seo.meta twitter:image: unsafe link'))
  })
})
