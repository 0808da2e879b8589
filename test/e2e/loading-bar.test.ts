/**
 * The route loading bar in a real browser: shown for a
 * slow navigation (3 px high), not for a quick one, red when the navigation fails.
 */
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { LOADING_BAR_ERROR_COLOR } from '../../src/client/loading-bar.js'
import { LOADING_BAR } from '../../src/shared/client-constants.js'
import { hasChromium, isSameDocument, markDocument, openPage, waitForHydration } from './helpers/browser.js'
import { waitForPageView } from './helpers/pages.js'
import { type BuiltSite, useSiteAndBrowser } from './helpers/site.js'

/** Internal footer links below the fold and nowhere else on the page: nothing prefetches them before a click. */
const footerOnlyLinks = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const elsewhere = new Set(
      [...document.querySelectorAll('a[href^="/"]')]
        .filter((a) => !a.closest('footer'))
        .map((a) => a.getAttribute('href')),
    )
    const hrefs = [...document.querySelectorAll<HTMLAnchorElement>('footer a[href^="/"]')]
      .filter((a) => a.getBoundingClientRect().top > window.innerHeight && !elsewhere.has(a.getAttribute('href')))
      .map((a) => a.getAttribute('href') as string)
      .filter((href) => !href.includes('#') && !href.includes('.'))
    return [...new Set(hrefs)]
  })

// A script click: no hover, so no prefetch before the navigation starts.
const scriptClick = (page: Page, href: string) =>
  page.evaluate((h) => (document.querySelector(`footer a[href="${h}"]`) as HTMLElement).click(), href)

interface BarSnapshot {
  state: string
  color: string
  height: number
  /** `performance.now()` when the state was seen. */
  at: number
}

/** Records the bar's `data-state` (with its colour and height) each time it changes from now on. */
const recordBarStates = (page: Page) =>
  page.evaluate(() => {
    const bar = document.getElementById('site-loading-bar') as HTMLElement
    const states: BarSnapshot[] = []
    ;(window as unknown as { __barStates: BarSnapshot[] }).__barStates = states
    new MutationObserver(() =>
      states.push({
        state: bar.getAttribute('data-state') ?? '',
        color: getComputedStyle(bar).backgroundColor,
        height: bar.getBoundingClientRect().height,
        at: performance.now(),
      }),
    ).observe(bar, { attributes: true, attributeFilter: ['data-state'] })
  })

const barStates = (page: Page): Promise<BarSnapshot[]> =>
  page.evaluate(() => (window as unknown as { __barStates: BarSnapshot[] }).__barStates)

describe.skipIf(!hasChromium)('route loading bar', () => {
  let site: BuiltSite
  let browser: Browser

  useSiteAndBrowser((built, launched) => {
    site = built
    browser = launched
  })

  async function openHome() {
    const opened = await openPage(browser)
    const requested = new Set<string>()
    opened.page.on('request', (request) => void requested.add(new URL(request.url()).pathname))
    await opened.page.setViewportSize({ width: 1000, height: 600 })
    await opened.page.goto(`${site.url}/`)
    await waitForHydration(opened.page)
    await markDocument(opened.page)
    await recordBarStates(opened.page)
    const links = (await footerOnlyLinks(opened.page)).filter((href) => !requested.has(`${href}/_payload.json`))
    expect(links.length).toBeGreaterThan(0)
    return { ...opened, links }
  }

  it('appears after the throttle on a slow navigation, 3 px high, and hides after finishing', async () => {
    const { context, page, problems, links } = await openHome()
    const target = links[0] as string
    await page.route(`**${target}/_payload.json*`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_200))
      await route.continue()
    })
    await scriptClick(page, target)
    await page.waitForSelector('#site-loading-bar[data-state="loading"]')
    await page.waitForFunction(
      () => getComputedStyle(document.getElementById('site-loading-bar') as HTMLElement).opacity === '1',
    )
    const shown = await page.evaluate(() => {
      const bar = document.getElementById('site-loading-bar') as HTMLElement
      const style = getComputedStyle(bar)
      return {
        height: bar.getBoundingClientRect().height,
        opacity: style.opacity,
        position: style.position,
        top: bar.getBoundingClientRect().top,
      }
    })
    expect(shown).toEqual({ height: LOADING_BAR.heightPx, opacity: '1', position: 'fixed', top: 0 })
    await waitForPageView(page, target, 2)
    await page.waitForSelector('#site-loading-bar[data-state="idle"]', { state: 'attached' })
    // Idle fades the bar out (a CSS transition): how far it got when the test looks depends on the
    // machine's load, so wait for the end of the fade, not a moment of it.
    await page.waitForFunction(
      () => getComputedStyle(document.getElementById('site-loading-bar') as HTMLElement).opacity === '0',
    )
    expect(await isSameDocument(page)).toBe(true)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('is not shown for a quick navigation', async () => {
    const { context, page, problems, links } = await openHome()
    const target = links[0] as string
    // Quick as a real quick navigation is: the link was hovered first, so its payload and
    // templates are already in (this also keeps the test independent of the machine's load).
    await page.hover(`footer a[href="${target}"]`)
    await page.waitForLoadState('networkidle')
    // When the navigation started and when its page was shown, in the page's own clock.
    const clickedAt = await page.evaluate((href) => {
      const w = window as unknown as { __shownAt?: number }
      window.addEventListener('site:page', () => (w.__shownAt ??= performance.now()))
      const at = performance.now()
      ;(document.querySelector(`footer a[href="${href}"]`) as HTMLElement).click()
      return at
    }, target)
    await waitForPageView(page, target, 2)
    await page.waitForTimeout(LOADING_BAR.throttleMs + 100)
    const shownAt = await page.evaluate(() => (window as unknown as { __shownAt: number }).__shownAt)
    const loading = (await barStates(page)).filter((snapshot) => snapshot.state === 'loading')
    // Never before the throttle; and not at all when the page came within it. How long the navigation
    // takes depends on the machine's load: on a busy one it may outlast the throttle,
    // and then showing the bar is right.
    for (const snapshot of loading) expect(snapshot.at - clickedAt).toBeGreaterThanOrEqual(LOADING_BAR.throttleMs)
    if (shownAt - clickedAt < LOADING_BAR.throttleMs) expect(loading).toEqual([])
    expect(await isSameDocument(page)).toBe(true)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('turns to the error colour when the navigation fails, then loads the page in full', async () => {
    const { context, page, links } = await openHome()
    const target = links[0] as string
    let attempts = 0
    await page.route(`**${target}/_payload.json*`, async (route) => {
      attempts++
      await route.abort('failed')
    })
    await scriptClick(page, target)
    // The site may set --site-loading-bar-error-color: a probe resolves the colour the bar should have.
    const expected = await page.evaluate((errorColor) => {
      const probe = document.body.appendChild(document.createElement('i'))
      probe.style.backgroundColor = errorColor
      return getComputedStyle(probe).backgroundColor
    }, LOADING_BAR_ERROR_COLOR)
    await page.waitForFunction(() =>
      (window as unknown as { __barStates: BarSnapshot[] }).__barStates.some((s) => s.state === 'error'),
    )
    const bar = (await barStates(page)).find((snapshot) => snapshot.state === 'error') as BarSnapshot
    expect(bar.color).toBe(expected)
    const [red = 0, green = 0, blue = 0] = (bar.color.match(/\d+/g) ?? []).map(Number)
    expect(red).toBeGreaterThan(150)
    expect(Math.max(green, blue)).toBeLessThan(80)
    expect(bar.height).toBe(LOADING_BAR.heightPx)
    // STYLE 11: one retry after re-reading the manifest, then a (guarded) full page load.
    expect(attempts).toBe(2)
    await page.waitForURL(`${site.url}${target}`)
    await page.waitForLoadState('load')
    expect(await isSameDocument(page)).toBe(false)
    await context.close()
  })
})
