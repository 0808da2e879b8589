import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemoApi } from '../../src/demo/server.js'
import type { TemplateRegistry } from '../../src/shared/contract.js'
import { liveInitialDataUrl } from '../../src/shared/layout.js'
import { DEMO_OPTIONS, loadTestRegistry, makeHandler, type ScriptedApi, startScriptedApi } from './preview-helpers.js'

const PAGE = {
  id: 7,
  type: 'Standard',
  slug: '/scripted',
  media: [],
  meta: { title: 'Scripted page' },
  appearance: { layout: 'layout-0', backendLayout: 'default' },
  content: { colPos0: [] },
  i18n: [],
}
const INITIAL = { navigation: [], i18n: [] }

describe('preview handler and the content API', () => {
  let cacheDir: string
  let registry: TemplateRegistry
  let demo: Awaited<ReturnType<typeof startDemoApi>>
  let scripted: ScriptedApi
  let elsewhere: ScriptedApi

  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'site-preview-api-'))
    registry = await loadTestRegistry(cacheDir)
    demo = await startDemoApi({ port: 0 })
    elsewhere = await startScriptedApi({})
    scripted = await startScriptedApi({
      '/?type=834': {
        body: INITIAL,
        headers: { 'set-cookie': ['session=abc; Path=/; HttpOnly'], 'cache-control': 'max-age=5' },
      },
      '/scripted': {
        body: PAGE,
        headers: {
          'cache-control': 'private, max-age=60',
          'x-typo3-parsetime': '12ms',
          'set-cookie': ['fe_typo_user=xyz; Path=/'],
        },
      },
      // A cookie value may hold a comma, also before `x=`: one cookie each, as the API sent them.
      '/comma-cookies': {
        body: PAGE,
        headers: { 'set-cookie': ['prefs=a=1,b=2; Path=/', 'quoted="x,y=z"; Path=/; HttpOnly'] },
      },
      '/bad-redirect': { body: { redirectUrl: 'javascript:alert(1)', statusCode: 301 } },
      '/protocol-relative': { body: { redirectUrl: '//evil.example/x', statusCode: 302 } },
      // The build refuses these; preview once sent them on as Location.
      '/dot-segments': { body: { redirectUrl: '/a/../b', statusCode: 301 } },
      '/encoded-slash': { body: { redirectUrl: '/a/%2f', statusCode: 301 } },
      '/external': { body: { redirectUrl: 'https://www.example.com/target', statusCode: 307 } },
      '/public-cache': { body: PAGE, headers: { 'cache-control': 'public, max-age=3600, S-MAXAGE=600' } },
      '/api-fails': { status: 500, body: { error: 'Oops, an error occurred!' } },
      '/no-page': { body: { hello: 'the TYPO3 frontend, not EXT:headless' } },
    })
  }, 60_000)
  afterAll(async () => {
    await Promise.all([demo?.close(), scripted?.close(), elsewhere?.close()])
    await rm(cacheDir, { recursive: true, force: true })
  })

  const pageRequests = (path: string) => demo.requests.filter((r) => r.path === path && r.query.type !== '834')

  it('sends only the allowed query parameters to the page request (type always passes)', async () => {
    const { handle } = await makeHandler({ apiUrl: demo.url, registry })
    const res = await handle(
      new Request('http://localhost/services?cHash=abc&utm_source=mail&type=0&pce=1&debug&tx_news_pi1%5Bnews%5D=5'),
    )
    await res.text()
    const seen = pageRequests('/services').at(-1)!
    expect(seen.query).toEqual({ cHash: 'abc', type: '0', 'tx_news_pi1[news]': '5' })
    for (const request of demo.requests.slice(-4)) expect(request.query).not.toHaveProperty('utm_source')
  })

  it('forwards the named request headers and no others, to the page and initial data requests', async () => {
    const { handle } = await makeHandler({ apiUrl: demo.url, registry })
    const before = demo.requests.length
    await (
      await handle(
        new Request('http://localhost/contact', {
          headers: {
            cookie: 'be_typo_user=1',
            'accept-language': 'pl-PL',
            authorization: 'Bearer secret',
            'x-api-key': 'k',
            'x-forwarded-host': 'evil.example',
          },
        }),
      )
    ).text()
    const sent = demo.requests.slice(before)
    expect(sent.length).toBeGreaterThanOrEqual(2)
    for (const request of sent) {
      expect(request.headers.cookie).toBe('be_typo_user=1')
      expect(request.headers['accept-language']).toBe('pl-PL')
      expect(request.headers).not.toHaveProperty('authorization')
      expect(request.headers).not.toHaveProperty('x-api-key')
      expect(request.headers).not.toHaveProperty('x-forwarded-host')
      expect(request.headers.host).toBe(new URL(demo.url).host)
    }
  })

  it('forwards nothing when proxyReqHeaders is off', async () => {
    const { handle } = await makeHandler({
      apiUrl: demo.url,
      registry,
      user: { ...DEMO_OPTIONS, api: { ...DEMO_OPTIONS.api, proxyReqHeaders: false } },
    })
    const before = demo.requests.length
    await (await handle(new Request('http://localhost/contact', { headers: { cookie: 'be_typo_user=1' } }))).text()
    for (const request of demo.requests.slice(before)) expect(request.headers).not.toHaveProperty('cookie')
  })

  it('copies the named API answer headers onto the HTML response, and only those', async () => {
    const { handle } = await makeHandler({ apiUrl: scripted.url, registry })
    const res = await handle(new Request('http://localhost/scripted'))
    expect(res.status).toBe(200)
    await res.text()
    expect(res.headers.get('cache-control')).toBe('private, max-age=60')
    expect(res.headers.getSetCookie()).toEqual(['session=abc; Path=/; HttpOnly', 'fe_typo_user=xyz; Path=/'])
    expect(res.headers.has('x-typo3-parsetime')).toBe(false)
    const none = await makeHandler({
      apiUrl: scripted.url,
      registry,
      user: { ...DEMO_OPTIONS, api: { ...DEMO_OPTIONS.api, proxyHeaders: false } },
    })
    const plain = await none.handle(new Request('http://localhost/scripted'))
    await plain.text()
    expect(plain.headers.get('cache-control')).toBe('no-store')
    expect(plain.headers.getSetCookie()).toEqual([])
  })

  it("keeps the API's cache policy private: a preview may show a hidden page, no shared cache keeps it", async () => {
    const { handle } = await makeHandler({ apiUrl: scripted.url, registry })
    const res = await handle(new Request('http://localhost/public-cache'))
    expect(res.status).toBe(200)
    await res.text()
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600')
  })

  it('passes each API cookie on whole, also one whose value holds a comma', async () => {
    const { handle } = await makeHandler({ apiUrl: scripted.url, registry })
    const res = await handle(new Request('http://localhost/comma-cookies'))
    expect(res.status).toBe(200)
    await res.text()
    expect(res.headers.getSetCookie()).toEqual([
      'session=abc; Path=/; HttpOnly',
      'prefs=a=1,b=2; Path=/',
      'quoted="x,y=z"; Path=/; HttpOnly',
    ])
  })

  it('refuses unsafe redirect targets and passes http(s) ones', async () => {
    const { handle } = await makeHandler({ apiUrl: scripted.url, registry })
    for (const path of ['/bad-redirect', '/protocol-relative', '/dot-segments', '/encoded-slash']) {
      const res = await handle(new Request(`http://localhost${path}`))
      expect(res.status, path).toBe(502)
      expect(res.headers.has('location')).toBe(false)
      await res.text()
    }
    const external = await handle(new Request('http://localhost/external'))
    expect(external.status).toBe(307)
    expect(external.headers.get('location')).toBe('https://www.example.com/target')
  })

  it("shows an unsafe redirect's error with the locale's header and footer, and names the target on the terminal", async () => {
    const menu = { title: 'Scripted menu entry', link: '/scripted', target: '', spacer: 0 }
    const api = await startScriptedApi({
      '/?type=834': { body: { ...INITIAL, navigation: [menu] } },
      '/bad-redirect': { body: { redirectUrl: 'javascript:alert(1)', statusCode: 301 } },
    })
    try {
      const lines: string[] = []
      const { handle } = await makeHandler({ apiUrl: api.url, registry, log: (line) => lines.push(line) })
      const res = await handle(new Request('http://localhost/bad-redirect'))
      expect(res.status).toBe(502)
      expect(await res.text()).toContain('Scripted menu entry')
      expect(lines).toEqual([
        'preview: /bad-redirect: 502 Refused a redirect to an unsafe target: "javascript:alert(1)" (unsafe URL scheme)',
      ])
    } finally {
      await api.close()
    }
  })

  it('names on the terminal why a page is an error of the API, each time, with the address it asked', async () => {
    const lines: string[] = []
    const { handle } = await makeHandler({ apiUrl: scripted.url, registry, log: (line) => lines.push(line) })
    for (const path of ['/api-fails', '/no-page', '/scripted'])
      await (await handle(new Request(`http://localhost${path}`))).text()
    expect(lines).toHaveLength(2)
    expect(lines[0]).toBe(`preview: /api-fails: 500 HTTP 500 (GET ${scripted.url}/api-fails)`)
    expect(lines[1]).toBe('preview: /no-page: 502 The API answer for /no-page is not a page (no numeric id)')
  })

  it('names the same on the terminal when the page is asked for as the payload of a click in the preview', async () => {
    const lines: string[] = []
    const { handle } = await makeHandler({ apiUrl: scripted.url, registry, log: (line) => lines.push(line) })
    for (const path of ['/api-fails', '/no-page', '/bad-redirect', '/scripted'])
      await (await handle(new Request(`http://localhost${path}/_payload.json`))).text()
    expect(lines).toEqual([
      `preview: /api-fails/_payload.json: 500 HTTP 500 (GET ${scripted.url}/api-fails)`,
      'preview: /no-page/_payload.json: 502 The API answer for /no-page is not a page (no numeric id)',
      'preview: /bad-redirect/_payload.json: 502 Refused a redirect to an unsafe target: "javascript:alert(1)" (unsafe URL scheme)',
    ])
  })

  it('only ever calls the configured API, whatever the request says', async () => {
    const { handle } = await makeHandler({ apiUrl: demo.url, registry })
    const other = new URL(elsewhere.url).host
    const res = await handle(
      new Request(`http://${other}/about-us`, {
        headers: { host: other, 'x-forwarded-host': other, forwarded: `host=${other}` },
      }),
    )
    expect(res.status).toBe(200)
    await res.text()
    await (await handle(new Request(`http://localhost/${elsewhere.url}/about-us`))).text()
    await (await handle(new Request(`http://localhost//${other}/about-us`))).text()
    expect(elsewhere.requests).toEqual([])
  })

  it('names on the terminal initial data the API answers 404 for: every page is a 404 then, the page exists', async () => {
    const noInitial = await startScriptedApi({ '/scripted': { body: PAGE } }) // no initial data: `?type=834` is 404
    try {
      const lines: string[] = []
      const { handle } = await makeHandler({ apiUrl: noInitial.url, registry, log: (line) => lines.push(line) })
      const page = await handle(new Request('http://localhost/scripted'))
      expect(page.status).toBe(404)
      await page.text()
      expect(lines).toEqual([
        `preview: /scripted: 404 Initial Data is unavailable: HTTP 404 (GET ${noInitial.url}/?type=834)`,
      ])
    } finally {
      await noInitial.close()
    }
  })

  it('answers a failure of its own with 500 and the catalogue message, the stack on the terminal only', async () => {
    const lines: string[] = []
    const { handle, ctx } = await makeHandler({ apiUrl: scripted.url, registry, log: (line) => lines.push(line) })
    Object.assign(ctx.sites[0]!.api, {
      getPage: () => {
        throw new Error('secret internal detail')
      },
    })
    const res = await handle(new Request('http://localhost/scripted'))
    expect(res.status).toBe(500)
    expect(await res.text()).toBe('500 Internal Server Error: Unknown route middleware error\n')
    expect(lines.join('\n')).toContain('secret internal detail')
  })

  it('asks for no initial data with features.initInitialData off, as the build does not', async () => {
    const noInitial = await startScriptedApi({ '/scripted': { body: PAGE } }) // no initial data: `?type=834` is 404
    try {
      const user = { ...DEMO_OPTIONS, features: { ...DEMO_OPTIONS.features, initInitialData: false } }
      const { handle } = await makeHandler({ apiUrl: noInitial.url, registry, user })
      const page = await handle(new Request('http://localhost/scripted'))
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('Scripted page')
      const missing = await handle(new Request('http://localhost/a%2fb'))
      expect(missing.status).toBe(404)
      await missing.text()
      const data = await handle(new Request(`http://localhost${liveInitialDataUrl('pl')}`))
      expect(data.status).toBe(200)
      expect(await data.json()).toMatchObject({ navigation: [], i18n: [] })
      expect(noInitial.requests.map((r) => r.path)).toEqual(['/scripted'])
    } finally {
      await noInitial.close()
    }
  })

  describe('several sites', () => {
    const user = {
      ...DEMO_OPTIONS,
      // each its own origin: two sites may not share the top-level baseUrl
      sites: [
        { hostname: ['www.example.com', 'example.com'], baseUrl: 'http://www.example.com:3000' },
        { hostname: 'de.example.com', baseUrl: 'http://de.example.com:3000', i18n: { default: 'de' } },
      ],
    }

    it('chooses the site by Host and answers an allowed host of no site with 404 and the unknown-host message', async () => {
      const allowed = { ...user, preview: { ...user.preview, allowedHosts: ['evil.example'] } }
      const { handle } = await makeHandler({ apiUrl: demo.url, registry, user: allowed })
      const known = await handle(new Request('http://www.example.com:3000/about-us'))
      expect(known.status).toBe(200)
      await known.text()
      const viaHeader = await handle(new Request('http://localhost/about-us', { headers: { host: 'example.com' } }))
      expect(viaHeader.status).toBe(200)
      await viaHeader.text()
      const unknown = await handle(new Request('http://evil.example/about-us'))
      expect(unknown.status).toBe(404)
      expect(await unknown.text()).toContain('Hostname: evil.example not found in sites configuration')
    })

    it('tells a browser at localhost which hosts there are and how to pin one; a bot gets the status alone', async () => {
      const { handle } = await makeHandler({ apiUrl: demo.url, registry, user })
      const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0 Safari/537.36' }
      const local = await handle(new Request('http://localhost:3000/', { headers: browser }))
      expect(local.status).toBe(404)
      expect(await local.text()).toBe(
        '404 Not Found: Hostname: localhost not found in sites configuration\n' +
          'Configured hosts: www.example.com, example.com, de.example.com: open the preview by one of them, or start it with --site HOST\n',
      )
      const bot = await handle(new Request('http://localhost:3000/', { headers: { 'user-agent': 'Googlebot/2.1' } }))
      expect(await bot.text()).toBe('404 Not Found\n')
    })
  })
})
