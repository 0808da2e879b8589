/** `site build` against the demo content API: the files a static host receives. */
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildResult } from '../../src/build/types.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { toHtmlFile, toPayloadFile } from '../../src/shared/url.js'
import {
  BASE_URL,
  type BuildTools,
  buildSite,
  LOCALES,
  loadBuildTools,
  navigationPaths,
  REPO_ROOT,
  readBoot,
  readTree,
} from './build-helpers.js'

let api: DemoApi
let tools: BuildTools
let dir: string
let out: string
let result: BuildResult
const initialData = new Map<string, Record<string, unknown>>()

const read = (path: string) => readFile(join(out, path), 'utf8')
const readJson = async <T = Record<string, unknown>>(path: string): Promise<T> => JSON.parse(await read(path)) as T

beforeAll(async () => {
  ;[api, tools] = await Promise.all([startDemoApi({ port: 0 }), loadBuildTools()])
  dir = await mkdtemp(join(tmpdir(), 'site-build-'))
  out = join(dir, 'out')
  result = await buildSite({ apiUrl: api.url, outDir: out, tools })
  for (const locale of LOCALES) {
    const prefix = locale === 'en' ? '' : `/${locale}`
    initialData.set(locale, (await (await fetch(`${api.url}${prefix}/?type=834`)).json()) as Record<string, unknown>)
  }
}, 60_000)

afterAll(async () => {
  await api?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('site build on the demo API', () => {
  it('succeeds, and swaps the output in without leaving temporary folders', async () => {
    expect(result.failures).toEqual([])
    expect(result.outDir).toBe(out)
    expect(await readdir(dir)).toEqual(['out'])
  })

  it('builds every page of every locale that the navigation reaches', async () => {
    for (const locale of LOCALES) {
      const nav = navigationPaths(initialData.get(locale)!)
      expect(nav.size).toBeGreaterThan(5)
      for (const path of nav) {
        expect(result.pages.paths, `${locale}: ${path}`).toContain(path)
        expect(existsSync(join(out, toHtmlFile(path))), toHtmlFile(path)).toBe(true)
        expect(existsSync(join(out, toPayloadFile(path))), toPayloadFile(path)).toBe(true)
      }
    }
    expect(Object.keys(result.pages.byLocale)).toEqual([...LOCALES])
    for (const locale of LOCALES) expect(result.pages.byLocale[locale]).toBeGreaterThan(10)
    expect(existsSync(join(out, 'index.html'))).toBe(true)
    expect(existsSync(join(out, 'pl/index.html'))).toBe(true)
    expect(existsSync(join(out, 'de/index.html'))).toBe(true)
  })

  it('writes a payload per page with its data, locale, client version and initial data URL', async () => {
    const payload = await readJson<{
      clientVersion: string
      locale: string
      path: string
      status: number
      page: { id: number }
      initialDataUrl: string
    }>('pl/o-nas/_payload.json')
    expect(payload).toMatchObject({
      clientVersion: result.manifest.clientVersion,
      locale: 'pl',
      path: '/pl/o-nas',
      status: 200,
    })
    expect(result.manifest.clientVersion).toMatch(/^[0-9a-f]{12}$/)
    expect(typeof payload.page.id).toBe('number')
    expect(payload.initialDataUrl).toMatch(/^\/_site\/data\/initial-pl-[0-9a-f]{10}\.json$/)
    expect(existsSync(join(out, payload.initialDataUrl))).toBe(true)
  })

  it('writes initial data once per locale, content-hashed, and references it from every page', async () => {
    const files = (await readdir(join(out, '_site/data'))).sort()
    expect(files).toHaveLength(3)
    for (const locale of LOCALES) {
      const file = files.find((f) => f.startsWith(`initial-${locale}-`))!
      const data = await readJson<{ navigation: unknown[]; i18n: unknown[] }>(`_site/data/${file}`)
      expect(data.navigation.length).toBeGreaterThan(0)
      const home = locale === 'en' ? 'index.html' : `${locale}/index.html`
      const boot = readBoot(await read(home))
      expect(boot.clientVersion).toBe(result.manifest.clientVersion)
      expect(boot.initialDataUrl).toBe(`/_site/data/${file}`)
      expect(boot.state.initialData).toBeUndefined()
      expect(boot.state).toMatchObject({ mode: 'static', editorPreview: false, debug: false, locale })
    }
  })

  it('writes the build manifests', async () => {
    const latest = await readJson('_site/builds/latest.json')
    expect(latest).toEqual({ id: result.buildId, clientVersion: result.manifest.clientVersion })
    expect(result.buildId).toMatch(/^[0-9a-f]{16}$/)
    const meta = await readJson<{ id: string; prerendered: string[] }>(`_site/builds/meta/${result.buildId}.json`)
    expect(meta.id).toBe(result.buildId)
    const expected = [...result.pages.paths, ...result.redirects.map((r) => r.from)].sort()
    expect(meta.prerendered).toEqual(expected)
  })

  it('writes a localised 404 page per locale, from the API error handler page', async () => {
    const pages = { '404.html': 'en', 'pl/404.html': 'pl', 'de/404.html': 'de' }
    for (const [file, locale] of Object.entries(pages)) {
      const html = await read(file)
      expect(html).toContain(`<html lang="${locale}"`)
      expect(readBoot(html).state).toMatchObject({ status: 404, locale })
    }
    expect(await read('pl/404.html')).toContain('Nie znaleziono strony')
  })

  // A page at the old path would be served by Netlify instead of the rule (200, not 301).
  it('writes redirect payloads and _redirects, and no page at the old path', async () => {
    expect(result.redirects).toContainEqual({ from: '/old-services', to: '/services', statusCode: 301 })
    expect(existsSync(join(out, 'old-services/index.html'))).toBe(false)
    expect(await readJson('old-services/_payload.json')).toEqual({
      clientVersion: result.manifest.clientVersion,
      locale: 'en',
      path: '/old-services',
      redirect: { to: '/services', statusCode: 301 },
    })
    const lines = (await read('_redirects')).trim().split('\n')
    expect(lines).toContain('/old-services /services 301')
    expect(lines).toEqual([...lines].sort())
  })

  it('writes a sitemap of indexable pages with hreflang alternates, and robots.txt', async () => {
    const xml = await read('sitemap.xml')
    expect(xml).toContain(`<loc>${BASE_URL}/about-us</loc>`)
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="pl-PL" href="${BASE_URL}/pl/o-nas"/>`)
    expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${BASE_URL}/about-us"/>`)
    // the imprint pages are noIndex in the demo content
    expect(xml).not.toContain('/imprint</loc>')
    expect(xml).not.toContain('/pl/nota-prawna')
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
    expect(locs).toEqual([...locs].sort())
    expect(await read('robots.txt')).toContain(`Sitemap: ${BASE_URL}/sitemap.xml`)
  })

  it('copies public/ as it is and writes the client bundle', async () => {
    const publicFiles = await readTree(join(REPO_ROOT, 'public'))
    expect(publicFiles.size).toBeGreaterThan(0)
    for (const [path, bytes] of publicFiles) {
      if (path === 'robots.txt') continue
      expect((await readFile(join(out, path))).equals(bytes), path).toBe(true)
    }
    const client = await tools.bundleClient()
    for (const file of client.files) expect(existsSync(join(out, file.path)), file.path).toBe(true)
    for (const script of client.assets.scripts) expect(await read('about-us/index.html')).toContain(script)
  })

  it('reports bytes written and timings', () => {
    expect(result.bytesWritten).toBeGreaterThan(100_000)
    expect(result.filesWritten).toBeGreaterThan(result.pages.total * 2)
    expect(result.timings.apiWaitMs).toBeGreaterThan(0)
    expect(result.timings.renderMs).toBeGreaterThan(0)
  })
})

describe('deterministic output (byte-stable builds)', () => {
  it('gives byte-identical output trees for the same API answers, manifests included, at another time', async () => {
    const again = join(dir, 'again')
    const second = await buildSite({ apiUrl: api.url, outDir: again, tools, now: () => Date.now() + 86_400_000 })
    expect(second.failures).toEqual([])
    expect(second.buildId).toBe(result.buildId)
    const [a, b] = await Promise.all([readTree(out), readTree(again)])
    expect([...b.keys()]).toEqual([...a.keys()])
    const differing = [...a].filter(([path, bytes]) => !bytes.equals(b.get(path)!)).map(([path]) => path)
    expect(differing).toEqual([])
  })

  it('renders the same files in worker threads as in the main thread', async () => {
    const pooled = join(dir, 'pooled')
    const second = await buildSite({
      apiUrl: api.url,
      outDir: pooled,
      tools: { bundleClient: tools.bundleClient },
      renderThreads: 2,
    })
    expect(second.failures).toEqual([])
    const [a, b] = await Promise.all([readTree(out), readTree(pooled)])
    expect([...b.keys()]).toEqual([...a.keys()])
    const differing = [...a].filter(([path, bytes]) => !bytes.equals(b.get(path)!)).map(([path]) => path)
    expect(differing).toEqual([])
  })

  it('puts nothing of the build (id, time) into pages and payloads', async () => {
    const files = await readTree(out)
    for (const [path, bytes] of files) {
      if (path.startsWith('_site/builds/')) continue
      expect(bytes.includes(result.buildId), path).toBe(false)
    }
  })
})

describe('features.initInitialData: false', () => {
  it('builds from the locale home pages without asking for initial data', async () => {
    const from = api.requests.length
    const outDir = join(dir, 'no-initial-data')
    const built = await buildSite({
      apiUrl: api.url,
      outDir,
      tools,
      user: { baseUrl: BASE_URL, features: { initInitialData: false } },
    })
    expect(built.failures).toEqual([])
    expect(api.requests.slice(from).filter((r) => r.query.type !== undefined)).toEqual([])
    expect(built.pages.paths).toEqual(expect.arrayContaining(['/', '/pl', '/de']))
    const files = await readdir(join(outDir, '_site/data'))
    for (const file of files)
      expect(JSON.parse(await readFile(join(outDir, '_site/data', file), 'utf8'))).toEqual({ navigation: [], i18n: [] })
  })
})
