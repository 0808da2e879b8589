/**
 * axe-core in Chromium over every demo page in the three locales (and their
 * 404 pages): no serious or critical violation. The Nu HTML checker over every
 * built demo page: no error. What Chromium's accessibility tree tells a screen
 * reader after a client navigation.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { actOn, hasChromium, isSameDocument, markDocument, openPage, waitForHydration } from './helpers/browser.js'
import { builtTitle, waitForPageView } from './helpers/pages.js'
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

  // Speech input users say what they see ("click PL"): the visible language code is in the button's name.
  it('names the language switch with the language it shows, in each locale', async () => {
    const { context, page } = await openPage(browser)
    for (const [path, name] of [
      ['/', 'Change language: EN'],
      ['/pl', 'Zmień język: PL'],
      ['/de', 'Sprache ändern: DE'],
    ] as const) {
      await page.goto(`${site.url}${path}`)
      expect(await page.getByRole('button', { name, exact: true }).count()).toBe(1)
    }
    await context.close()
  })

  interface AxNode {
    ignored: boolean
    backendDOMNodeId?: number
    properties?: Array<{ name: string; value: { value?: unknown } }>
  }

  /** The live regions in Chromium's accessibility tree (what a screen reader is told of changes): politeness and text. */
  async function liveRegions(page: Page): Promise<Array<{ live: string; text: string }>> {
    const cdp = await page.context().newCDPSession(page)
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] }
    const regions: Array<{ live: string; text: string }> = []
    for (const node of nodes) {
      const live = node.properties?.find((p) => p.name === 'live')?.value.value
      // The region itself (its descendants carry `live` too, with a `liveRegionRoot`).
      if (node.ignored || live === undefined || live === 'off' || node.backendDOMNodeId === undefined) continue
      if (node.properties?.some((p) => p.name === 'liveRegionRoot')) continue
      const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: node.backendDOMNodeId })
      const { result } = await cdp.send('Runtime.callFunctionOn', {
        objectId: object.objectId,
        functionDeclaration: 'function () { return this.textContent }',
        returnByValue: true,
      })
      regions.push({ live: String(live), text: String(result.value ?? '').trim() })
    }
    await cdp.detach()
    return regions
  }

  it('a client navigation announces the new page’s title in a live region; the first load announces nothing', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    // The router is there (it writes its history entry): the live region is in place before any navigation.
    await page.mouse.move(40, 40)
    await page.waitForFunction(() => (history.state as { site?: number } | null)?.site === 1)
    expect((await liveRegions(page)).filter((region) => region.text !== '')).toEqual([])

    await page.click('header .site-nav a[href="/about-us"]')
    await waitForPageView(page, '/about-us', 2)
    expect(await isSameDocument(page)).toBe(true)
    const title = await builtTitle(site.outDir, '/about-us')
    expect(await liveRegions(page)).toContainEqual({ live: 'assertive', text: title })
    // Back is a client render too.
    await page.goBack()
    await waitForPageView(page, '/', 3)
    expect(await liveRegions(page)).toContainEqual({ live: 'assertive', text: await builtTitle(site.outDir, '/') })
    expect(await seriousAxeViolations(page)).toEqual([])
    expect(problems.errors).toEqual([])
    await context.close()
  })

  /** The focused element's class, and the ids of the open popovers. */
  const focusState = (page: Page) =>
    page.evaluate(() => ({
      focused: document.activeElement?.className ?? '',
      open: Array.from(document.querySelectorAll(':popover-open'), (element) => element.id),
    }))

  /** `path` at a viewport of `width` x `height`, hydrated by a first key press (the demo's client loads on one). */
  async function openHydrated(path: string, width: number, height: number) {
    const opened = await openPage(browser)
    await opened.page.setViewportSize({ width, height })
    await opened.page.goto(`${site.url}${path}`)
    await actOn(opened.page, () => opened.page.keyboard.press('Shift'))
    await waitForHydration(opened.page, { act: false })
    return opened
  }

  /** A phone's view of `/about-us`, hydrated, its menu opened with the keyboard (Tab to the Menu button, Enter). */
  async function openPhoneMenu(): Promise<{ context: BrowserContext; page: Page }> {
    const { context, page } = await openHydrated('/about-us', 390, 844)
    while ((await focusState(page)).focused !== 'menu-toggle') await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    expect(await focusState(page)).toEqual({ focused: 'menu-toggle', open: ['site-menu'] })
    return { context, page }
  }

  // The open menu covers the page on a phone: focus must not go on behind it, where the visitor cannot see it.
  it('on a phone, Tab or Shift+Tab out of the open menu closes it', async () => {
    const { context, page } = await openPhoneMenu()
    await page.keyboard.press('Tab')
    expect(await focusState(page)).toEqual({ focused: 'site-menu__close', open: ['site-menu'] })
    await page.keyboard.press('Shift+Tab')
    expect(await focusState(page)).toEqual({ focused: 'menu-toggle', open: [] })

    await page.keyboard.press('Enter')
    while ((await focusState(page)).focused !== 'lang__toggle') await page.keyboard.press('Tab')
    expect((await focusState(page)).open).toEqual(['site-menu'])
    await page.keyboard.press('Tab')
    expect((await focusState(page)).open).toEqual([])
    await context.close()
  })

  // The menu's head (title, Close button) stays at the top while the panel scrolls: a link the focus scrolls into
  // view must not end up under it.
  it('on a phone, no link of the menu is hidden under its head when the focus moves up through it', async () => {
    const { context, page } = await openPhoneMenu()
    while ((await focusState(page)).focused !== 'lang__toggle') await page.keyboard.press('Tab')
    const hidden: string[] = []
    while ((await focusState(page)).focused !== 'site-menu__close') {
      await page.keyboard.press('Shift+Tab')
      const covering = await page.evaluate(() => {
        const focused = document.activeElement as HTMLElement
        const box = focused.getBoundingClientRect()
        const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)
        return top && focused.contains(top) ? '' : `${focused.textContent} under ${top?.className}`
      })
      if (covering) hidden.push(covering)
    }
    expect(hidden).toEqual([])
    await context.close()
  })

  // The language panel is a popover inside the menu's popover: the browser gives the focus back to the
  // button that opened a popover only when no other one is open.
  it('on a phone, Escape or Cancel in the menu’s language panel gives the focus back to the language button', async () => {
    const { context, page } = await openPhoneMenu()
    while ((await focusState(page)).focused !== 'lang__toggle') await page.keyboard.press('Tab')
    for (const close of ['Escape', 'Cancel']) {
      await page.keyboard.press('Enter')
      await page.keyboard.press('Tab')
      expect(await focusState(page)).toEqual({ focused: 'lang__link', open: ['site-menu', 'language-switcher'] })
      if (close === 'Cancel') {
        while ((await focusState(page)).focused !== 'lang__cancel') await page.keyboard.press('Tab')
        await page.keyboard.press('Enter')
      } else await page.keyboard.press('Escape')
      await expect
        .poll(() => focusState(page), { timeout: 2000 })
        .toEqual({ focused: 'lang__toggle', open: ['site-menu'] })
    }
    await context.close()
  })

  // On /services the page's context bar has icon buttons right under the open language panel.
  it('on a desktop, Tab out of the open language panel closes it; a click on its button too', async () => {
    const { context, page } = await openHydrated('/services', 1400, 900)
    while ((await focusState(page)).focused !== 'lang__toggle') await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    while ((await focusState(page)).focused !== 'lang__cancel') await page.keyboard.press('Tab')
    expect((await focusState(page)).open).toEqual(['language-switcher'])
    await page.keyboard.press('Tab')
    expect(await focusState(page)).toEqual({ focused: '', open: [] })
    // A click on its button still closes it, also with the focus in it.
    await page.click('.lang__toggle')
    await page.keyboard.press('Tab')
    expect((await focusState(page)).open).toEqual(['language-switcher'])
    await page.click('.lang__toggle')
    expect(await focusState(page)).toEqual({ focused: 'lang__toggle', open: [] })
    await context.close()
  })

  // Content shown on hover or focus must be dismissible without moving the pointer or the focus (WCAG 1.4.13).
  it('on a desktop, Escape hides the submenu shown by focus or hover; it shows again on the next focus or hover', async () => {
    const { context, page, problems } = await openHydrated('/about-us', 1400, 900)
    /** The titles of the parent links whose submenu shows, and the focused element's text. */
    const shown = () =>
      page.evaluate(() => ({
        submenus: Array.from(document.querySelectorAll('.site-nav .nav__submenu'))
          .filter((menu) => menu.checkVisibility())
          .map((menu) => menu.previousElementSibling?.textContent),
        focused: document.activeElement?.textContent,
      }))
    const parent = page.locator('.site-nav .nav__item--parent > a').first()
    const title = await parent.textContent()
    while ((await shown()).focused !== title) await page.keyboard.press('Tab')
    expect((await shown()).submenus).toEqual([title])
    // In the submenu, Escape gives the focus back to its parent link; Tab then goes on past the hidden submenu.
    await page.keyboard.press('Tab')
    await page.keyboard.press('Escape')
    expect(await shown()).toEqual({ submenus: [], focused: title })
    await page.keyboard.press('Tab')
    await page.keyboard.press('Shift+Tab')
    expect(await shown()).toEqual({ submenus: [title], focused: title })
    await page.keyboard.press('Escape')
    expect(await shown()).toEqual({ submenus: [], focused: title })
    // Shown by hover, the focus elsewhere: the pointer stays where it is.
    await page.evaluate(() => (document.activeElement as HTMLElement).blur())
    const last = page.locator('.site-nav .nav__item--parent > a').last()
    await last.hover()
    const lastTitle = await last.textContent()
    expect((await shown()).submenus).toEqual([lastTitle])
    await page.keyboard.press('Escape')
    expect((await shown()).submenus).toEqual([])
    await page.mouse.move(5, 5)
    await last.hover()
    expect((await shown()).submenus).toEqual([lastTitle])
    expect(problems.errors).toEqual([])
    await context.close()
  })

  // A key event a script makes with no key (a banner's `new KeyboardEvent('keydown', { keyCode: 27 })` on document)
  // was read as a focus or hover: 'closest is not a function' thrown on every page.
  it('takes a key event without a key that a script sends to the document or window as no Escape', async () => {
    const { context, page, problems } = await openHydrated('/about-us', 1400, 900)
    await page.evaluate(() => {
      for (const at of [document, window])
        at.dispatchEvent(new KeyboardEvent('keydown', { keyCode: 27, bubbles: true }))
    })
    expect(problems.errors).toEqual([])
    await context.close()
  })

  // Forced colours (Windows high contrast) paint every background over with the Canvas colour and drop shadows: the
  // lines of the Close button's ✕ (its only visible content) and of the Menu button's ☰ are drawn with both.
  it('in forced colours, the menu’s Close and Menu buttons still show their icons', async () => {
    const { context, page } = await openPage(browser)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.emulateMedia({ forcedColors: 'active' })
    await page.goto(`${site.url}/about-us`)
    expect(
      await page.evaluate(() => getComputedStyle(document.querySelector('.menu-toggle__icon') as Element).boxShadow),
    ).not.toBe('none')
    while ((await focusState(page)).focused !== 'menu-toggle') await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    // The middle of the round button, inside its border: dark pixels only where the ✕ is drawn.
    const { data, info } = await sharp(await page.locator('.site-menu__close').screenshot())
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true })
    let dark = 0
    for (let y = Math.round(info.height * 0.3); y < info.height * 0.7; y++)
      for (let x = Math.round(info.width * 0.3); x < info.width * 0.7; x++)
        if ((data[y * info.width + x] ?? 255) < 128) dark++
    expect(dark).toBeGreaterThan(10)
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
