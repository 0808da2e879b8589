/**
 * What search engines and static hosts act on is consistent. The demo site is built
 * with the demo config's baseUrl (http://127.0.0.1:8080), another host than the one the demo
 * CMS writes into its canonicals and language links (https://www.amberline.example).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renderSitemaps } from '../../src/build/output/sitemap.js'
import type { BuildResult, PageFact } from '../../src/build/types.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { createStaticHandler } from '../../src/serve/handler.js'
import { toHtmlFile } from '../../src/shared/url.js'
import { type BuildTools, buildSite, loadBuildTools } from './build-helpers.js'
import { checkRedirectsWithNetlify, checkRobots, checkSitemapsWithXmllint, hasXmllint } from './output-validators.js'
import { checkUrlConsistency, headUrls, readSitemapEntries } from './seo-helpers.js'

const SITE_URL = 'http://127.0.0.1:8080'

if (!hasXmllint)
  console.warn(
    'seo: the sitemap schema check is SKIPPED: no `xmllint` on the PATH (bash scripts/setup.sh installs one)',
  )

let api: DemoApi
let tools: BuildTools
let dir: string
let out: string
let result: BuildResult

beforeAll(async () => {
  ;[api, tools] = await Promise.all([startDemoApi({ port: 0 }), loadBuildTools()])
  dir = await mkdtemp(join(tmpdir(), 'site-seo-'))
  out = join(dir, 'out')
  result = await buildSite({ apiUrl: api.url, outDir: out, tools, user: { baseUrl: SITE_URL } })
  expect(result.failures).toEqual([])
}, 60_000)

afterAll(async () => {
  await api?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('one URL per page', () => {
  it('canonical, og:url, hreflang alternates and the sitemap name every demo page by the URL it is served at', async () => {
    const check = await checkUrlConsistency(out, result.pages.paths, SITE_URL)
    expect(check.mismatches).toEqual([])
    expect(check.alternateMismatches).toEqual([])
    expect(check.sitemapUrls.size).toBeGreaterThan(30)
    expect(check.alternatesCompared).toBeGreaterThan(20)
    expect([...check.sitemapUrls]).toContain(`${SITE_URL}/pl`)
    expect(headUrls(await readFile(join(out, 'pl/index.html'), 'utf8')).canonical).toEqual([`${SITE_URL}/pl`])
  })

  it('and every page of a generated site with every kind of content', async () => {
    const generated = await startDemoApi({ port: 0, generate: { pagesPerLocale: 12, everyKind: true } })
    try {
      const genOut = join(dir, 'generated')
      const built = await buildSite({ apiUrl: generated.url, outDir: genOut, tools, user: { baseUrl: SITE_URL } })
      expect(built.failures).toEqual([])
      const check = await checkUrlConsistency(genOut, built.pages.paths, SITE_URL)
      expect(check.mismatches).toEqual([])
      expect(check.alternateMismatches).toEqual([])
      expect(check.sitemapUrls.size).toBe(built.pages.total)
      // all but the Polish data protection notice, which has no translation (templates/texts/pl.ts links it)
      expect(check.alternatesCompared).toBe(built.pages.total - 1)
    } finally {
      await generated.close()
    }
  })
})

describe('redirects a host answers with a real 301', () => {
  it("Netlify's parser reads every rule of _redirects, and no file shadows one", async () => {
    const check = await checkRedirectsWithNetlify(out)
    console.log(
      `seo: netlify-redirect-parser read ${check.checked} rules: ${check.errors.length} errors, ${check.shadowed.length} shadowed by a file`,
    )
    expect(check.errors).toEqual([])
    expect(check.shadowed).toEqual([])
    expect(check.rules).toContainEqual({ from: '/old-services', to: '/services', status: 301, force: false })
    expect(check.rules).toHaveLength(result.redirects.length)
  })

  it('site serve answers each rule with its status and Location, and never serves _redirects itself', async () => {
    const handler = createStaticHandler({ dir: out })
    for (const redirect of result.redirects) {
      const response = await handler(new Request(`${SITE_URL}${redirect.from}`))
      expect(response.status, redirect.from).toBe(redirect.statusCode)
      expect(response.headers.get('location'), redirect.from).toBe(redirect.to)
    }
    const file = await handler(new Request(`${SITE_URL}/_redirects`))
    expect(file.status).toBe(404)
    expect(await file.text()).toContain('<!doctype html>') // the 404 page, read to its end: its file is closed
  })
})

describe('sitemap and robots.txt, as their own checkers read them', () => {
  it.skipIf(!hasXmllint)('every sitemap file validates against the sitemaps.org schema', async () => {
    const check = await checkSitemapsWithXmllint(out)
    console.log(`seo: xmllint read ${check.checked} sitemap files: ${check.errors.length} errors`)
    expect(check.checked).toBeGreaterThanOrEqual(1)
    expect(check.errors).toEqual([])
  })

  // A sitemap split by size is an index plus numbered files, each valid.
  it.skipIf(!hasXmllint)('a sitemap split by size is a valid index and valid numbered files', async () => {
    const split = join(dir, 'split')
    await mkdir(split)
    const facts: PageFact[] = ['/', '/pl', '/de', '/about-us', '/pl/o-nas', '/de/ueber-uns'].map((path) => ({
      path,
      locale: 'en',
      noIndex: false,
      alternates: [
        { hreflang: 'en-US', path: '/about-us' },
        { hreflang: 'pl-PL', path: '/pl/o-nas' },
        { hreflang: 'x-default', path: '/about-us' },
      ],
    }))
    const files = renderSitemaps(facts, SITE_URL, { maxBytes: 900 })
    for (const file of files) await writeFile(join(split, file.path), file.contents)
    const check = await checkSitemapsWithXmllint(split)
    console.log(`seo: xmllint read ${check.checked} files of a split sitemap: ${check.errors.length} errors`)
    expect(check.checked).toBeGreaterThanOrEqual(3)
    expect(check.errors).toEqual([])
    expect((await readSitemapEntries(split, SITE_URL)).map((e) => e.loc)).toHaveLength(facts.length)
  })

  it('robots.txt allows every sitemap URL and names the sitemap', async () => {
    const urls = (await readSitemapEntries(out, SITE_URL)).map((e) => e.loc)
    const check = await checkRobots(out, { siteUrl: SITE_URL, urls, sitemapUrl: `${SITE_URL}/sitemap.xml` })
    console.log(`seo: robots-parser checked ${check.checked} URLs: ${check.errors.length} errors`)
    expect(check.errors).toEqual([])
  })
})

describe('page speed', () => {
  it("inlines the site's stylesheet into every page: no request blocks the first paint", async () => {
    const css = (await readdir(join(out, '_site/assets'))).filter((file) => file.endsWith('.css'))
    expect(css.length).toBeGreaterThan(0)
    const styles = await readFile(join(out, '_site/assets', css[0]!), 'utf8')
    for (const path of result.pages.paths) {
      const head = (await readFile(join(out, toHtmlFile(path)), 'utf8')).split('</head>')[0]!
      expect(head, path).not.toContain('rel="stylesheet"')
      expect(head, path).toContain(`<style>${styles}</style>`)
    }
  })
})
