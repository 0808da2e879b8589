/**
 * Page quality on content other than the demo's. The demo API's every-kind
 * generated site (src/demo/generator-kinds.ts: every content type, header layout, both header
 * modes, every kind of menu entry in every menu) is built in en, pl and de; axe-core runs in
 * Chromium over every page (desktop, each header submenu opened, the mobile menu) and the W3C
 * Nu checker over every built HTML file. Both print their counts, so a regression is a number.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { hasChromium, openPage, waitForHydration } from './helpers/browser.js'
import { type BuiltSite, useSiteAndBrowser } from './helpers/site.js'
import { checkHtmlWithNu, hasJava, seriousAxeViolations } from './helpers/validators.js'

/** Pages per locale: enough for every variant of generator-kinds.ts to appear at least twice. */
const PAGES_PER_LOCALE = 12
/** The pages at the templates' fixed links, served besides: contact, careers, privacy policy; Polish's RODO notice. */
const FIXED_PAGES = 3 + 4 + 3
const NOT_FOUND = ['/no-such-page', '/pl/nie-ma-takiej-strony', '/de/keine-solche-seite']
const DESKTOP = { width: 1280, height: 900 }
const MOBILE = { width: 390, height: 844 }

if (!hasJava)
  console.warn(
    'page quality: the Nu HTML checker is SKIPPED: no `java` on the PATH (bash scripts/setup.sh installs one)',
  )

describe.skipIf(!hasChromium)('page quality over a site with every kind of content', () => {
  let site: BuiltSite
  let browser: Browser
  useSiteAndBrowser(
    (s, b) => {
      site = s
      browser = b
    },
    undefined,
    { generate: { pagesPerLocale: PAGES_PER_LOCALE, everyKind: true } },
  )

  const load = async (page: Page, path: string) => {
    await page.goto(`${site.url}${path}`)
    await waitForHydration(page)
  }
  /** Home pages and a page with a transparent header over a hero, per locale. */
  const headerPages = () =>
    site.result.pages.paths.filter(
      (p) => /^\/((pl|de)\/?)?$/.test(p) || /\/(section|dzial|bereich)-1\/[a-z]+-4$/.test(p),
    )

  it('axe finds no serious or critical violation on any page, in en, pl and de, desktop and mobile', async () => {
    const paths = [...site.result.pages.paths, ...NOT_FOUND]
    expect(paths).toHaveLength(3 * PAGES_PER_LOCALE + FIXED_PAGES + NOT_FOUND.length)
    const found: string[] = []
    let views = 0
    const { context, page } = await openPage(browser)
    await page.setViewportSize(DESKTOP)
    for (const path of paths) {
      await load(page, path)
      found.push(...(await seriousAxeViolations(page)).map((v) => `${path} desktop: ${v}`))
      views++
    }
    // Submenus show on hover or focus: open each, at every level, and check the header navigation.
    for (const path of headerPages()) {
      await load(page, path)
      const parents = await page.locator('.site-nav .nav__item--parent > a').count()
      expect(parents, path).toBeGreaterThanOrEqual(4)
      for (let i = 0; i < parents; i++) {
        await page.locator('.site-nav .nav__item--parent > a').nth(i).focus()
        found.push(...(await seriousAxeViolations(page, '.site-nav')).map((v) => `${path} submenu ${i}: ${v}`))
        views++
      }
    }
    await page.setViewportSize(MOBILE)
    for (const path of headerPages()) {
      await load(page, path)
      await page.click('.menu-toggle')
      await page.waitForSelector('#site-menu:popover-open')
      found.push(...(await seriousAxeViolations(page)).map((v) => `${path} mobile menu: ${v}`))
      views++
    }
    await context.close()
    console.log(
      `page quality: axe checked ${paths.length} pages in ${views} views: ${found.length} serious or critical violations`,
    )
    expect(found).toEqual([])
  })

  it.skipIf(!hasJava)('the Nu HTML checker finds no error in any built HTML file', async () => {
    const files = (await readdir(site.outDir, { recursive: true }))
      .filter((file) => file.endsWith('.html'))
      .map((file) => join(site.outDir, file))
    expect(files.length).toBeGreaterThanOrEqual(3 * PAGES_PER_LOCALE + FIXED_PAGES + 3)
    const result = await checkHtmlWithNu(files)
    console.log(`page quality: the Nu checker read ${result.files} HTML files: ${result.errors.length} errors`)
    expect(result.errors).toEqual([])
  })

  it('every page, the 404 pages included, has a meta description', async () => {
    const files = (await readdir(site.outDir, { recursive: true })).filter((file) => file.endsWith('.html'))
    const missing: string[] = []
    for (const file of files) {
      const html = await readFile(join(site.outDir, file), 'utf8')
      if (!/<meta name="description" content="[^"]+"/.test(html)) missing.push(file)
    }
    expect(missing).toEqual([])
  })
})
