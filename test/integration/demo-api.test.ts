import { connect } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import type { ContentElement, InitialData, LanguageEntry, NavEntry, PageData } from '../../src/shared/types.js'
import { startSite } from './build-helpers.js'
import { closedPort } from './ports.js'

const LOCALES = [
  ['en', ''],
  ['pl', '/pl'],
  ['de', '/de'],
] as const
const INITIAL_DATA_KEYS = [
  'navigation',
  'featuredNavigation',
  'minorNavigation',
  'socialMenu',
  'footerNavigation',
  'footerContactData',
  'i18n',
  'backendEditor',
]
const CONTENT_TYPES = [
  'header',
  'text',
  'textpic',
  'textmedia',
  'image',
  'bullets',
  'table',
  'uploads',
  'html',
  'shortcut',
  'menu_pages',
  'menu_subpages',
  'div',
  'custom_widget',
]

let api: DemoApi
const get = (path: string, init?: RequestInit) => fetch(`${api.url}${path}`, init)
const getJson = async <T>(path: string) => {
  const res = await get(path)
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as T }
}
const flatten = (entries: NavEntry[] = []): NavEntry[] => entries.flatMap((e) => [e, ...flatten(e.children)])
const isSitePath = (link: string) => link.startsWith('/') && !link.startsWith('//')
const elementsOf = (page: PageData): ContentElement[] =>
  Object.values(page.content)
    .flat()
    .flatMap((e) => [e, ...((e.content as { shortcut?: ContentElement[] }).shortcut ?? [])])
const hrefsOf = (page: PageData) =>
  [...JSON.stringify(page.content).matchAll(/href=\\"([^"\\]+)\\"/g)].map((m) => m[1] ?? '')

/** Every page reachable from the navigation of all locales and from links in bodytext. */
async function crawl(): Promise<Map<string, PageData>> {
  const pages = new Map<string, PageData>()
  const queue: string[] = []
  for (const [, prefix] of LOCALES) {
    const { body } = await getJson<InitialData>(`${prefix}/?type=834`)
    queue.push(...flatten(body.navigation).map((e) => e.link), ...flatten(body.footerNavigation).map((e) => e.link))
  }
  while (queue.length) {
    const path = (queue.shift() ?? '').replace(/(.)\/$/, '$1')
    if (!isSitePath(path) || pages.has(path)) continue
    const { status, body } = await getJson<PageData & { redirectUrl?: string }>(path)
    if (body.redirectUrl) {
      queue.push(body.redirectUrl)
      continue
    }
    expect(status, path).toBe(200)
    pages.set(path, body)
    queue.push(...hrefsOf(body), ...(body.i18n ?? []).map((l) => l.link))
  }
  return pages
}

let pages: Map<string, PageData>
beforeAll(async () => {
  api = await startDemoApi({ port: 0 })
  pages = await crawl()
})
afterAll(() => api.close())

describe('initial data', () => {
  it.each(LOCALES)('%s has every key, on the locale root with and without a trailing slash', async (code, prefix) => {
    for (const path of [`${prefix || '/'}?type=834`, `${prefix}/?type=834`]) {
      const { status, type, body } = await getJson<InitialData>(path)
      expect([status, type]).toEqual([200, 'application/json; charset=utf-8'])
      expect(Object.keys(body)).toEqual(expect.arrayContaining(INITIAL_DATA_KEYS))
      const top = body.navigation[0]?.children ?? []
      expect(
        top.some((e) => e.buttonLabel) && top.some((e) => e.spacer === 1) && top.some((e) => e.target === '_blank'),
      ).toBe(true)
      expect(top.some((e) => e.children?.length)).toBe(true)
      expect(body.socialMenu?.every((e) => typeof e.icon === 'string' && e.link.startsWith('https://'))).toBe(true)
      expect(body.footerContactData?.content.items?.length).toBeGreaterThanOrEqual(3)
      expect(body.i18n.map((l) => [l.twoLetterIsoCode, l.active])).toEqual(
        LOCALES.map(([c]) => [c, c === code ? 1 : 0]),
      )
      expect(body.backendEditor?.record).toBe(`${api.url}/typo3/record/edit?edit%5Btt_content%5D%5B__id__%5D=edit`)
    }
  })

  it('answers type=834 on a page path with that locale, and any other type too', async () => {
    expect((await getJson<InitialData>('/pl/o-nas?type=834')).body.i18n.find((l) => l.active)?.twoLetterIsoCode).toBe(
      'pl',
    )
    expect((await getJson<InitialData>('/de?type=835')).body.navigation[0]?.link).toBe('/de/')
  })

  // The footer's fixed links (templates/texts/<locale>.ts) point at these pages; the
  // demo's footerNavigation holds its own columns (company, services, case studies) instead of repeating them.
  it("has the pages the footer's fixed links point at, the RODO notice in Polish only", async () => {
    for (const path of [
      '/policy',
      '/careers',
      '/pl/polityka-prywatnosci',
      '/pl/kariera',
      '/pl/klauzula-informacyjna-rodo',
    ])
      expect((await getJson<PageData>(path)).status, path).toBe(200)
    for (const path of ['/de/policy', '/de/karriere']) expect((await getJson<PageData>(path)).status, path).toBe(200)
    expect((await getJson<PageData>('/de/klauzula-informacyjna-rodo')).status).toBe(404)
    const footer = async (prefix: string) =>
      flatten((await getJson<InitialData>(`${prefix}/?type=834`)).body.footerNavigation).map((e) => e.link)
    expect(await footer('')).toEqual(expect.arrayContaining(['/careers', '/imprint']))
    expect(await footer('/de')).not.toContain('/pl/klauzula-informacyjna-rodo')
  })
})

describe('pages', () => {
  it('every navigation link of every locale is a page or a redirect', async () => {
    for (const [, prefix] of LOCALES) {
      const { body } = await getJson<InitialData>(`${prefix}/?type=834`)
      const lists = [body.navigation, body.featuredNavigation, body.minorNavigation, body.footerNavigation]
      for (const entry of lists.flatMap((list) => flatten(list)).filter((e) => !e.spacer && isSitePath(e.link))) {
        const res = await get(entry.link)
        const data = (await res.json()) as { redirectUrl?: string; id?: number }
        expect([res.status, Boolean(data.redirectUrl ?? data.id)], entry.link).toEqual([200, true])
      }
    }
  })

  it('has about 15 pages per locale, each with i18n links that resolve', async () => {
    for (const [code, prefix] of LOCALES) {
      expect(
        [...pages.keys()].filter((p) => (code === 'en' ? !/^\/(pl|de)(\/|$)/.test(p) : p.startsWith(prefix))).length,
      ).toBeGreaterThanOrEqual(15)
    }
    for (const [path, page] of pages) {
      const i18n = page.i18n ?? []
      expect(i18n.map((l) => l.languageId)).toEqual([0, 1, 2])
      const own = i18n.find((l) => l.active === 1) as LanguageEntry
      expect(own.link.replace(/(.)\/$/, '$1')).toBe(path)
      for (const entry of i18n.filter((l) => l.available))
        expect(pages.has(entry.link.replace(/(.)\/$/, '$1')), entry.link).toBe(true)
    }
    const onlyEnPl = pages.get('/case-studies/mobile-banking-app')
    expect(onlyEnPl?.i18n?.map((l) => l.available)).toEqual([1, 1, 0])
    expect(pages.get('/pl/klauzula-informacyjna-rodo')?.i18n?.map((l) => l.available)).toEqual([0, 1, 0])
  })

  it('uses every standard content type, with all variants', () => {
    const elements = [...pages.values()].flatMap(elementsOf)
    expect([...new Set(elements.map((e) => e.type))]).toEqual(expect.arrayContaining(CONTENT_TYPES))
    const values = (type: string, key: string) =>
      new Set(elements.filter((e) => e.type === type).map((e) => e.content[key]))
    expect(values('bullets', 'bulletsType')).toEqual(new Set([0, 1, 2]))
    expect([...values('table', 'tableHeaderPosition')]).toEqual(expect.arrayContaining([1, 2]))
    expect([...values('table', 'tableCaption')].every(Boolean)).toBe(true)
    const media = elements
      .filter((e) => e.type === 'uploads')
      .flatMap((e) => e.content.media as Array<{ properties: { size: string } }>)
    expect(media.length > 0 && media.every((m) => /^\d+ (B|KB|MB)$/.test(m.properties.size))).toBe(true)
  })

  it('has the special pages the renderer needs', () => {
    const all = [...pages.values()]
    expect(all.some((p) => p.appearance.headerTransparent === true)).toBe(true)
    expect(new Set(all.map((p) => p.appearance.backendLayout))).toEqual(new Set(['default', 'two_columns']))
    expect(all.some((p) => p.appearance.backendLayout === 'two_columns' && p.content.colPos1?.length)).toBe(true)
    const menu = all.find((p) => p.contextMenu)?.contextMenu
    expect(menu?.navigation?.some((e) => e.title === '')).toBe(true)
    expect(
      menu?.iconButtons?.every((e) => e.icon) &&
        typeof menu?.iconButtonsText === 'string' &&
        typeof menu?.additionalLink,
    ).toBeTruthy()
    expect(all.some((p) => p.meta.robots?.noIndex === true)).toBe(true)
    const full = all.find(
      (p) => typeof p.meta.canonical === 'object' && p.meta.ogImage && p.meta.twitterImage && p.meta.description,
    )
    expect(full?.meta.ogImage?.publicUrl.startsWith(`${api.url}/fileadmin/`)).toBe(true)
    expect(all.some((p) => p.seo?.htmlAttrs?.lang && p.seo.link?.some((l) => l.rel === 'canonical'))).toBe(true)
  })

  it('links to pages, an external site, mailto and tel from bodytext', () => {
    const hrefs = [...pages.values()].flatMap(hrefsOf)
    expect(hrefs).toContain('/pl/kontakt')
    expect(
      hrefs.some((h) => h.startsWith('https://')) &&
        hrefs.some((h) => h.startsWith('mailto:')) &&
        hrefs.some((h) => h.startsWith('tel:')),
    ).toBe(true)
  })

  it('serves the images it references, with publicUrl on the request origin', async () => {
    const home = pages.get('/') as PageData
    const url = JSON.stringify(home).match(/"publicUrl":"([^"]+)"/)?.[1] ?? ''
    expect(url.startsWith(`${api.url}/fileadmin/`)).toBe(true)
    const res = await fetch(url)
    expect([res.status, res.headers.get('content-type')?.startsWith('image/')]).toEqual([200, true])
  })

  it('answers redirects with HTTP 200 JSON, paths with a trailing slash or percent-encoding', async () => {
    expect(await getJson('/old-services')).toMatchObject({
      status: 200,
      body: { redirectUrl: '/services', statusCode: 301 },
    })
    expect((await getJson<PageData>('/de/ueber-uns/')).body.id).toBe(pages.get('/de/ueber-uns')?.id)
    expect((await getJson<PageData>('/pl/o-%6Eas')).status).toBe(200)
  })
})

describe('404', () => {
  it.each([
    ['/no-such-page', 'Unfortunately'],
    ['/pl/nie-ma-takiej-strony', 'Niestety'],
    ['/de/gibt-es-nicht', 'Leider'],
  ])('%s is a 404 page in its locale', async (path, text) => {
    const { status, body } = await getJson<PageData>(path)
    expect(status).toBe(404)
    expect(body.content.colPos0?.length).toBeGreaterThan(0)
    expect(JSON.stringify(body.content)).toContain(text)
  })
})

describe('faults, latency, request log', () => {
  it('fails as each fault kind says, only for the matching path and query', async () => {
    api.setFaults([
      { path: '/a', kind: 'status500' },
      { path: '/b', kind: 'status503' },
      { path: '/c', kind: 'status404' },
      { path: '/d', kind: 'reset' },
      { path: '/e', kind: 'hang' },
      { path: '/f', kind: 'malformed-json' },
      { path: '/g', kind: 'html' },
      { path: '/', query: 'type=834', kind: 'status500' },
    ])
    for (const [path, status] of [
      ['/a', 500],
      ['/b', 503],
      ['/c', 404],
    ] as const) {
      expect(await getJson(path)).toMatchObject({ status, body: { error: expect.any(String) } })
    }
    await expect(get('/d')).rejects.toThrow()
    const hanging = await get('/e', { signal: AbortSignal.timeout(300) })
    await expect(hanging.text()).rejects.toThrow()
    await expect((await get('/f')).json()).rejects.toThrow()
    const html = await get('/g')
    expect([html.status, html.headers.get('content-type'), (await html.text()).includes('<html>')]).toEqual([
      200,
      'text/html; charset=utf-8',
      true,
    ])
    expect((await get('/?type=834')).status).toBe(500)
    expect((await get('/')).status).toBe(200)
    api.setFaults([])
    expect((await get('/?type=834')).status).toBe(200)
  })

  it('answers no earlier than the latency after the request arrived', async () => {
    api.setLatency(150)
    const started = performance.now()
    await (await get('/about-us')).text()
    api.setLatency(0)
    expect(performance.now() - started).toBeGreaterThanOrEqual(140)
  })

  it('logs path, parsed query and headers', async () => {
    await (await get('/pl/kontakt?foo=bar', { headers: { 'x-demo-test': 'yes' } })).text()
    expect(api.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/pl/kontakt',
      query: { foo: 'bar' },
      headers: { 'x-demo-test': 'yes' },
    })
  })
  // `site demo-api --latency 20000`, Ctrl-C: the process waited out the latency of a request it had already dropped.
  it('ends at once on SIGTERM while a request waits out its latency', async () => {
    const port = await closedPort()
    const run = startSite(['demo-api', '--port', String(port), '--latency', '60000'])
    let ready = false
    run.child.stdout?.on('data', () => (ready = true))
    while (!ready) await delay(25)
    void fetch(`http://127.0.0.1:${port}/`).catch(() => {})
    await delay(300)
    const sent = performance.now()
    run.child.kill('SIGTERM')
    expect((await run.done).code).toBe(0)
    expect(performance.now() - sent).toBeLessThan(5000)
  }, 30_000)
})

describe('robustness', () => {
  const raw = (target: string) =>
    new Promise<string>((done, fail) => {
      const socket = connect(Number(new URL(api.url).port), '127.0.0.1', () =>
        socket.end(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      )
      let text = ''
      socket
        .on('data', (chunk) => (text += chunk))
        .on('end', () => done(text))
        .on('error', fail)
    })

  it.each(['/..%2f..%2fetc/passwd', '/fileadmin/..%2f..%2fsite.json', '/%E0%A4%A', '/a%00b'])(
    'refuses %s with 400',
    async (path) => {
      const res = await get(path)
      const text = await res.text()
      expect(res.status).toBe(400)
      expect(text).not.toMatch(/root:|"languages"/)
    },
  )

  it('refuses raw traversal targets and keeps serving', async () => {
    expect(await raw('/../../etc/passwd')).toMatch(/^HTTP\/1\.1 400/)
    expect(await raw('../../etc/passwd')).toMatch(/^HTTP\/1\.1 400/)
    expect(await raw('/%2e%2e/%2e%2e/etc/passwd')).toMatch(/^HTTP\/1\.1 400/)
    expect(await raw('/fileadmin/../../../etc/passwd')).toMatch(/^HTTP\/1\.1 400/)
    expect((await get('/')).status).toBe(200)
  })
})

describe('generated site', () => {
  it('serves 50 pages per locale, all reachable from the navigation and the section menus', async () => {
    const generated = await startDemoApi({ port: 0, generate: { pagesPerLocale: 50 } })
    try {
      for (const [, prefix] of LOCALES) {
        const data = (await (await fetch(`${generated.url}${prefix}/?type=834`)).json()) as InitialData
        const queue = [...new Set(flatten(data.navigation).map((e) => e.link))]
        const seen = new Set(queue)
        for (const link of queue) {
          const res = await fetch(`${generated.url}${link}`)
          const page = (await res.json()) as PageData
          expect([res.status, page.content.colPos0?.length], link).toEqual([200, 8])
          for (const entry of page.i18n ?? []) expect((await fetch(`${generated.url}${entry.link}`)).status).toBe(200)
          for (const element of page.content.colPos0 ?? [])
            if (element.type.startsWith('menu_'))
              for (const entry of (element.content as { menu: Array<{ link: string }> }).menu)
                if (!seen.has(entry.link)) seen.add(entry.link) && queue.push(entry.link)
        }
        expect(seen.size).toBe(50)
      }
      expect((await fetch(`${generated.url}/section-2`)).status).toBe(404)
    } finally {
      await generated.close()
    }
  })
})
