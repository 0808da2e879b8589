/**
 * Issue 5, size: layouts and content elements are loaded on demand, each its own chunk.
 * A page preloads and imports exactly its own before it hydrates; a client navigation
 * imports the next page's before rendering it; a chunk that fails to load is a chunk load
 * error (a guarded full page load).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { toHtmlFile } from '../../src/shared/url.js'
import { hasChromium, isSameDocument, markDocument, openPage, waitForHydration } from './helpers/browser.js'
import { waitForPageView } from './helpers/pages.js'
import { useSiteAndBrowser, type BuiltSite } from './helpers/site.js'

interface PageScripts {
  entry: string
  preloads: string[]
}

describe.skipIf(!hasChromium)('templates loaded on demand (issue 5)', () => {
  let site: BuiltSite
  let browser: Browser

  useSiteAndBrowser((built, launched) => ((site = built), (browser = launched)))

  /** The module script and the modulepreload links the build wrote into a page. */
  async function scriptsOf(path: string): Promise<PageScripts> {
    const html = await readFile(join(site.outDir, toHtmlFile(path)), 'utf8')
    const entry = /<script type="module" src="([^"]+)"><\/script>/.exec(html)?.[1]
    if (!entry) throw new Error(`${path}: no module script`)
    return { entry, preloads: [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1] as string) }
  }

  it('a page preloads the chunks of its own templates and loads no other script before it hydrates', async () => {
    const home = await scriptsOf('/')
    const cases = await scriptsOf('/case-studies')
    // The two-column page needs a layout chunk the home page does not (and the reverse).
    expect(cases.preloads.filter((url) => !home.preloads.includes(url)).length).toBeGreaterThan(0)
    expect(home.preloads.filter((url) => !cases.preloads.includes(url)).length).toBeGreaterThan(0)

    const { context, page, problems } = await openPage(browser)
    await page.addInitScript(() => {
      window.addEventListener('site:page', (event) => {
        const w = window as unknown as { __hydratedAt?: number }
        if ((event as CustomEvent<{ kind: string }>).detail.kind === 'hydrate') w.__hydratedAt ??= performance.now()
      })
    })
    for (const [path, scripts] of [['/', home], ['/case-studies', cases]] as const) {
      await page.goto(`${site.url}${path}`)
      await waitForHydration(page)
      const before = await page.evaluate(() => {
        const hydratedAt = (window as unknown as { __hydratedAt: number }).__hydratedAt
        return performance
          .getEntriesByType('resource')
          .filter((entry) => entry.startTime < hydratedAt && /^\/_site\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname))
          .map((entry) => new URL(entry.name).pathname)
      })
      expect(new Set(before), path).toEqual(new Set([scripts.entry, ...scripts.preloads]))
    }
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a client navigation loads the next page’s templates before it renders it', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    expect(await page.locator('.layout--two-columns').count()).toBe(0)
    await page.evaluate(() => (document.querySelector('header .site-nav a[href="/case-studies"]') as HTMLElement).click())
    await waitForPageView(page, '/case-studies', 2)
    expect(await isSameDocument(page)).toBe(true)
    expect(await page.locator('#main .layout--two-columns').count()).toBe(1)
    const cases = await scriptsOf('/case-studies')
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname))
    for (const url of cases.preloads) expect(loaded).toContain(url)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a template chunk that fails to load turns the navigation into one full page load (reload guard)', async () => {
    const home = await scriptsOf('/')
    const cases = await scriptsOf('/case-studies')
    const missing = cases.preloads.filter((url) => !home.preloads.includes(url))
    const { context, page } = await openPage(browser)
    await page.route('**/_site/assets/*.js', (route) => (missing.includes(new URL(route.request().url()).pathname) ? route.abort('failed') : route.continue()))
    const documents: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname)
    })
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    await page.evaluate(() => (document.querySelector('header .site-nav a[href="/case-studies"]') as HTMLElement).click())
    await page.waitForURL(`${site.url}/case-studies`)
    await page.waitForLoadState('load')
    expect(await isSameDocument(page)).toBe(false)
    // The loaded page cannot hydrate either (same chunks): the guard allows no second reload within 10 s.
    await page.waitForTimeout(1_500)
    expect(documents).toEqual(['/', '/case-studies'])
    expect(await page.locator('#main .layout--two-columns').count()).toBe(1)
    await context.close()
  })
})
