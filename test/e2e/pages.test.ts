/**
 * Every demo page of the three locales (and their 404 pages) hydrates with no
 * console error and no hydration warning; `/sw.js` is registered and caches assets only.
 */
import type { Browser } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { hasChromium, openPage, waitForHydration } from './helpers/browser.js'
import { type BuiltSite, useSiteAndBrowser } from './helpers/site.js'

describe.skipIf(!hasChromium)('demo pages in the browser', () => {
  let site: BuiltSite
  let browser: Browser

  useSiteAndBrowser((built, launched) => {
    site = built
    browser = launched
  })

  it('hydrate without console errors or hydration warnings, in en, pl and de', async () => {
    const paths = site.result.pages.paths
    for (const locale of ['pl', 'de']) expect(paths.some((path) => path.startsWith(`/${locale}`))).toBe(true)
    const notFound = ['/no-such-page', '/pl/nie-ma-takiej-strony', '/de/keine-solche-seite']
    const { context, page, problems } = await openPage(browser)
    const failures: string[] = []
    for (const path of [...paths, ...notFound]) {
      problems.errors.length = 0
      const response = await page.goto(`${site.url}${path}`)
      expect(response?.status(), path).toBe(notFound.includes(path) ? 404 : 200)
      await waitForHydration(page)
      // Let the deferred work run: navigation chunk, prefetching, the manifest check.
      await page.waitForLoadState('networkidle')
      // Chrome reports the 404 status of the document itself as a console error: that one is expected.
      const errors = problems.errors.filter((text) => !(notFound.includes(path) && /status of 404/.test(text)))
      if (errors.length > 0) failures.push(`${path}: ${errors.join(' | ')}`)
    }
    expect(failures).toEqual([])
    await context.close()
  })

  it('registers /sw.js, which caches the hashed assets and never pages or payloads', async () => {
    const { context, page, problems } = await openPage(browser, { serviceWorkers: 'allow' })
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    const scriptUrl = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready
      return registration.active?.scriptURL
    })
    expect(scriptUrl).toBe(`${site.url}/sw.js`)
    // Controlled from the next load on: assets go through the worker's cache.
    await page.reload()
    await waitForHydration(page)
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    await page.evaluate(() => (document.querySelector('header a[href="/about-us"]') as HTMLElement).click())
    await page.waitForFunction(() => location.pathname === '/about-us')
    const cached = await page.evaluate(async () => {
      const urls: string[] = []
      for (const name of await caches.keys())
        for (const request of await (await caches.open(name)).keys())
          urls.push(`${name} ${new URL(request.url).pathname}`)
      return urls
    })
    const paths = cached.map((entry) => entry.split(' ')[1] as string)
    expect(paths.some((path) => /^\/_site\/assets\/entry-[^/]+\.js$/.test(path))).toBe(true)
    expect(paths.filter((path) => !path.startsWith('/_site/assets/') && path !== '/__site-sw/builds')).toEqual([])
    expect(cached.some((entry) => entry.startsWith(`site-v1-build-${site.result.manifest.clientVersion} `))).toBe(true)
    expect(problems.errors).toEqual([])
    await context.close()
  })
})
