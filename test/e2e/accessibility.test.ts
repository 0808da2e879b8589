/**
 * Issue 7: axe-core in Chromium over every demo page in the three locales (and their
 * 404 pages): no serious or critical violation.
 */
import type { Browser } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { hasChromium, openPage, waitForHydration } from './helpers/browser.js'
import { type BuiltSite, useSiteAndBrowser } from './helpers/site.js'
import { seriousAxeViolations } from './helpers/validators.js'

describe.skipIf(!hasChromium)('accessibility of the demo site (issue 7)', () => {
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
})
