import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startDemoApi } from '../../src/demo/server.js'
import type { TemplateRegistry } from '../../src/shared/contract.js'
import { clientModulesOf } from '../shared/client-modules.js'
import { DEMO_OPTIONS, loadTestRegistry, makeHandler, readBoot } from './preview-helpers.js'

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36'

describe('preview handler: pages, errors, redirects, bots, editor preview', () => {
  let cacheDir: string
  let registry: TemplateRegistry
  let api: Awaited<ReturnType<typeof startDemoApi>>
  let handle: (request: Request) => Promise<Response>
  const get = (path: string, headers: Record<string, string> = {}) =>
    handle(new Request(`http://localhost:3000${path}`, { headers: { 'user-agent': BROWSER, ...headers } }))

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'site-preview-pages-'))
    registry = await loadTestRegistry(cacheDir)
    api = await startDemoApi({ port: 0 })
    handle = (await makeHandler({ apiUrl: api.url, registry })).handle
  }, 60_000)
  afterAll(async () => {
    await api?.close()
    await rm(cacheDir, { recursive: true, force: true })
  })
  beforeEach(() => api.setFaults([]))

  it('renders a page live, with the preview boot state and the client assets', async () => {
    const res = await get('/about-us')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const html = await res.text()
    expect(html).toContain('About us')
    expect(html).toContain('/_site/assets/entry-1a2b3c.js')
    const boot = readBoot(html)
    expect(boot.clientVersion).toBe('preview')
    // the version of the page's templates and config: its stream is told the version pages are at
    expect(boot.reloadEventsUrl).toMatch(/^\/_site\/events\?v=\d+$/)
    expect(boot.state).toMatchObject({
      mode: 'preview',
      path: '/about-us',
      locale: 'en',
      status: 200,
      editorPreview: false,
      debug: false,
    })
    expect(boot.state.initialData).toBeTruthy()
  })

  it('takes the locale from the first path segment', async () => {
    const res = await get('/pl/o-nas')
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toMatch(/<html[^>]* lang="pl"/)
    expect(readBoot(html).state).toMatchObject({ locale: 'pl', path: '/pl/o-nas' })
  })

  it('adds editor preview markup and scripts only with ?pce=1', async () => {
    const plain = await (await get('/about-us')).text()
    expect(plain).not.toContain('pce-target')
    expect(plain).not.toContain('editor-7a8b9c.js')
    const other = await (await get('/about-us?pce=0')).text()
    expect(other).not.toContain('pce-target')
    const editing = await (await get('/about-us?pce=1')).text()
    expect(editing).toContain('pce-target')
    expect(editing).toMatch(/data-pce-uid="\d+"/)
    expect(editing).toContain('/_site/assets/editor-7a8b9c.js')
    expect(readBoot(editing).state.editorPreview).toBe(true)
    // The boot says how the main hydrates, as the preloads below decide it.
    expect(readBoot(editing).hydration).toEqual({ kind: 'full' })
    expect(readBoot(plain).hydration).toEqual({ kind: 'kept' })
    // Editor preview hydrates the main, so it preloads the main's templates; a visitor's page keeps its main.
    expect(clientModulesOf(editing).preloads).toEqual(
      expect.arrayContaining(['/_site/assets/main-33.js', '/_site/assets/Default-layout-11.js']),
    )
    expect(plain).not.toContain('main-33.js')
  })

  it('never adds editor preview markup when features.contentPreview is off', async () => {
    const off = await makeHandler({
      apiUrl: api.url,
      registry,
      user: { ...DEMO_OPTIONS, features: { contentPreview: false } },
    })
    const html = await (await off.handle(new Request('http://localhost/about-us?pce=1'))).text()
    expect(html).not.toContain('pce-target')
    expect(html).not.toContain('editor-7a8b9c.js')
    expect(readBoot(html).state.editorPreview).toBe(false)
  })

  it('answers a redirect record with its status and Location', async () => {
    const moved = await get('/old-services')
    expect(moved.status).toBe(301)
    expect(moved.headers.get('location')).toBe('/services')
    const found = await get('/pl/praca')
    expect(found.status).toBe(302)
    expect(found.headers.get('location')).toBe('/pl/kariera')
  })

  it('keeps ?pce=1 and ?debug on a redirect within the site, so the CMS split view stays in editor preview', async () => {
    const moved = await get('/old-services?pce=1&cHash=abc')
    expect(moved.status).toBe(301)
    expect(moved.headers.get('location')).toBe('/services?pce=1')
    const found = await get('/pl/praca?debug&pce=1')
    expect(found.headers.get('location')).toBe('/pl/kariera?pce=1&debug=')
  })

  it('renders the error page with the API status and the error body page content', async () => {
    const res = await get('/no-such-page')
    expect(res.status).toBe(404)
    const html = await res.text()
    expect(html).toContain('You may be looking for')
    expect(readBoot(html).state).toMatchObject({ status: 404 })
    expect(html).not.toContain('HTTP 404 (GET')
  })

  it('shows the raw error with ?debug when preview runs with features.debug (--debug)', async () => {
    const debugging = await makeHandler({
      apiUrl: api.url,
      registry,
      user: { ...DEMO_OPTIONS, features: { ...DEMO_OPTIONS.features, debug: true } },
    })
    const html = await (await debugging.handle(new Request('http://localhost:3000/no-such-page?debug'))).text()
    expect(html).toContain('HTTP 404 (GET')
    api.setFaults([{ path: '/services', kind: 'status500' }])
    const failed = await debugging.handle(new Request('http://localhost:3000/services?debug=1'))
    expect(failed.status).toBe(500)
    expect(await failed.text()).toContain('Internal Server Error (demo fault)')
  })

  it('renders an API failure with its status', async () => {
    api.setFaults([{ path: '/services', kind: 'status503' }])
    const res = await get('/services')
    expect(res.status).toBe(503)
    const html = await res.text()
    expect(html).toMatch(/Error|503/)
    // The API's address stays out of the error unless ?debug asks for it.
    expect(readBoot(html).state.error).toEqual({ status: 503, message: 'HTTP 503' })
    api.setFaults([{ path: '/services', kind: 'reset' }])
    expect((await get('/services')).status).toBe(502)
    api.setFaults([{ path: '/services', kind: 'html' }])
    expect((await get('/services')).status).toBe(502)
  })

  it('answers bots with the status and a plain body, never the error page', async () => {
    const missing = await get('/no-such-page', { 'user-agent': GOOGLEBOT })
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).toMatch(/^text\/plain/)
    const body = await missing.text()
    expect(body).not.toContain('<')
    expect(body.length).toBeLessThan(100)
    api.setFaults([{ path: '/services', kind: 'status500' }])
    const failed = await get('/services', { 'user-agent': GOOGLEBOT })
    expect(failed.status).toBe(500)
    expect(await failed.text()).not.toContain('<')
    const page = await get('/about-us', { 'user-agent': GOOGLEBOT })
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('About us')
  })

  it('shows "Initial Data is unavailable" with the upstream status when both endpoints fail', async () => {
    api.setFaults([{ path: '/', query: 'type=834', kind: 'status503' }])
    const res = await get('/about-us')
    expect(res.status).toBe(503)
    expect(await res.text()).toContain('Initial Data is unavailable:')
    const bot = await get('/about-us', { 'user-agent': GOOGLEBOT })
    expect(bot.status).toBe(503)
    expect(await bot.text()).not.toContain('<')
  })

  it('answers an invalid route with "Page Not Found: {path}" and 404', async () => {
    const res = await get('/a%2fb')
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('Page Not Found: /a%2fb')
    expect((await get(`/${'x'.repeat(1100)}`)).status).toBe(404)
    // a path that does not decode is such a route too
    const malformed = await get('/pl/a%ZZ')
    expect(malformed.status).toBe(404)
    expect(await malformed.text()).toContain('Page Not Found: /pl/a%ZZ')
    const bot = await get('/a%2fb', { 'user-agent': GOOGLEBOT })
    expect(bot.status).toBe(404)
    expect(await bot.text()).not.toContain('<')
  })

  it('survives a template error with a 500 page, not a crash', async () => {
    const lines: string[] = []
    const thrower = () => {
      throw new Error('template bug')
    }
    const broken = {
      ...registry,
      layouts: Object.fromEntries(Object.keys(registry.layouts).map((name) => [name, thrower])),
    } as TemplateRegistry
    const { handle: brokenHandle } = await makeHandler({
      apiUrl: api.url,
      registry: broken,
      log: (line) => lines.push(line),
    })
    const res = await brokenHandle(new Request('http://localhost/about-us'))
    expect(res.status).toBe(500)
    await res.text()
    expect(lines.join('\n')).toContain('template bug')
  })
})
