/**
 * axe-core in Chromium over every demo page in the three locales (and their
 * 404 pages): no serious or critical violation. The Nu HTML checker over every
 * built demo page: no error.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { hasChromium, openPage, waitForHydration } from './helpers/browser.js'
import { type BuiltSite, useSiteAndBrowser } from './helpers/site.js'
import { checkHtmlWithNu, hasJava, seriousAxeViolations } from './helpers/validators.js'

describe.skipIf(!hasChromium)('accessibility of the demo site', () => {
  let site: BuiltSite
  let browser: Browser

  useSiteAndBrowser((s, b) => {
    site = s
    browser = b
  })

  it('has no serious or critical axe violation on any page, in en, pl and de', async () => {
    const paths = [...site.result.pages.paths, '/no-such-page', '/pl/nie-ma-takiej-strony', '/de/keine-solche-seite']
    for (const locale of ['pl', 'de']) expect(paths.filter((p) => p.startsWith(`/${locale}`)).length).toBeGreaterThan(5)
    const { context, page } = await openPage(browser)
    const found: string[] = []
    for (const path of paths) {
      await page.goto(`${site.url}${path}`)
      await waitForHydration(page)
      found.push(...(await seriousAxeViolations(page)).map((v) => `${path}: ${v}`))
    }
    console.log(`accessibility: axe checked ${paths.length} demo pages: ${found.length} serious or critical violations`)
    expect(found).toEqual([])
    await context.close()
  })

  it.skipIf(!hasJava)('the Nu HTML checker finds no error in any built demo page', async () => {
    const files = (await readdir(site.outDir, { recursive: true }))
      .filter((file) => file.endsWith('.html'))
      .map((file) => join(site.outDir, file))
    const result = await checkHtmlWithNu(files)
    console.log(`accessibility: the Nu checker read ${result.files} demo HTML files: ${result.errors.length} errors`)
    expect(result.errors).toEqual([])
  })
})
