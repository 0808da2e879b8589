/**
 * Lighthouse once measured a layout shift of 0.072 on the demo's /services on a phone:
 * the first card's image (wrapped in <picture> because it loads eagerly) had no size until it
 * loaded. Here its images are held back, and every image of the first screen must already have
 * the box it will have once loaded: its width, and a height from its width and height attributes.
 */
import type { Browser } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { hasChromium, openPage } from './helpers/browser.js'
import { type BuiltSite, useSiteAndBrowser } from './helpers/site.js'

const PHONE = { width: 412, height: 823 }

describe.skipIf(!hasChromium)('images keep their size before they load', () => {
  let site: BuiltSite
  let browser: Browser
  useSiteAndBrowser((s, b) => {
    site = s
    browser = b
  })

  for (const path of ['/', '/services', '/pl/uslugi', '/about-us']) {
    it(`every image on the first screen of ${path} has its final box before it loads, on a phone`, async () => {
      const { context, page } = await openPage(browser)
      await page.setViewportSize(PHONE)
      // Images never arrive: what the page shows meanwhile is what a slow phone shows before they do.
      await page.route(/\/fileadmin\//, () => undefined)
      await page.goto(`${site.url}${path}`, { waitUntil: 'domcontentloaded' })
      const boxes = await page.$$eval('img', (images) =>
        images.map((img) => {
          const box = img.getBoundingClientRect()
          return { src: img.getAttribute('src'), top: box.top, width: box.width, height: box.height, w: img.width }
        }),
      )
      await context.close()
      const firstScreen = boxes.filter((b) => b.top < PHONE.height && b.src?.includes('/fileadmin/'))
      const unsized = firstScreen.filter((b) => b.width < PHONE.width / 2 || b.height < b.width / 3)
      console.log(
        `layout: ${path}: ${firstScreen.length} images on the first screen, ${unsized.length} without their size`,
      )
      expect(unsized).toEqual([])
    })
  }
})
