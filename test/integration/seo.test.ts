/**
 * Issue 14: what search engines and static hosts act on is consistent. The demo site is built
 * with the demo config's baseUrl (http://127.0.0.1:8080), another host than the one the demo
 * CMS writes into its canonicals and language links (https://www.amberline.example).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildResult } from '../../src/build/types.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { toHtmlFile, toSiteUrl } from '../../src/shared/url.js'
import { type BuildTools, buildSite, loadBuildTools } from './build-helpers.js'
import { headUrls, readSitemapEntries } from './seo-helpers.js'

const SITE_URL = 'http://127.0.0.1:8080'

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

describe('one URL per page (issue 14, item 1)', () => {
  it('canonical, og:url, hreflang alternates and the sitemap name every page by the URL it is served at', async () => {
    const sitemap = new Map((await readSitemapEntries(out, SITE_URL)).map((e) => [e.loc, e]))
    const mismatches: string[] = []
    let alternatesCompared = 0
    for (const path of result.pages.paths) {
      const own = toSiteUrl(path, SITE_URL)
      const head = headUrls(await readFile(join(out, toHtmlFile(path)), 'utf8'))
      if (head.canonical.join() !== own) mismatches.push(`${path}: canonical ${head.canonical.join()}`)
      if (head.ogUrl.join() !== own) mismatches.push(`${path}: og:url ${head.ogUrl.join()}`)
      for (const href of Object.values(head.alternates))
        if (!href.startsWith(`${SITE_URL}/`)) mismatches.push(`${path}: alternate ${href}`)
      const entry = sitemap.get(own)
      if (!entry) continue // noindex pages are not in the sitemap
      // The sitemap lists the alternates that are indexable pages of the build: each as the head names it.
      const indexed = Object.entries(head.alternates).filter(([, href]) => sitemap.has(href))
      if (Object.keys(entry.alternates).length > 0) {
        alternatesCompared++
        expect(entry.alternates, path).toEqual(Object.fromEntries(indexed))
      }
    }
    expect(mismatches).toEqual([])
    expect(sitemap.size).toBeGreaterThan(30)
    expect(alternatesCompared).toBeGreaterThan(20)
    expect([...sitemap.keys()]).toContain(`${SITE_URL}/pl`)
    expect(headUrls(await readFile(join(out, 'pl/index.html'), 'utf8')).canonical).toEqual([`${SITE_URL}/pl`])
  })
})
