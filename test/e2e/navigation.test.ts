/**
 * Client navigation in a real browser: header link, back/forward, language switch.
 * The demo site is built and served on loopback by the set-up (see helpers/site.ts).
 */
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { ROUTE_ANNOUNCER_ID } from '../../src/client/route-announcer.js'
import { hasChromium, isSameDocument, markDocument, openPage, waitForHydration } from './helpers/browser.js'
import { builtTitle, pageViews, textOf, waitForPageView } from './helpers/pages.js'
import { type BuiltSite, useSiteAndBrowser } from './helpers/site.js'

/** What tells the navigation chunk from the others: only the client's router announces a page. */
const NAVIGATION_CHUNK_MARK = ROUTE_ANNOUNCER_ID

describe.skipIf(!hasChromium)('visitor navigation', () => {
  let site: BuiltSite
  let browser: Browser

  useSiteAndBrowser((built, launched) => {
    site = built
    browser = launched
  })

  /** A hydrated page at `path` whose router is there: it has written its history entry (the navigation chunk loads when the browser is idle). */
  async function openRouted(
    path: string,
    before?: (page: Page) => Promise<unknown>,
  ): Promise<Awaited<ReturnType<typeof openPage>>> {
    const opened = await openPage(browser)
    await before?.(opened.page)
    await opened.page.goto(`${site.url}${path}`)
    await waitForHydration(opened.page)
    await markDocument(opened.page)
    await opened.page.mouse.move(40, 40)
    await opened.page.waitForFunction(() => (history.state as { site?: number } | null)?.site === 1)
    return opened
  }

  /** Clicks the link to /careers; its page must come as a full load (a new document), not be left waiting for ever. */
  async function expectCareersLoadedInFull(page: Page): Promise<void> {
    await page.evaluate(() => (document.querySelector('a[href="/careers"]') as HTMLElement).click())
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Work with us', undefined, {
      timeout: 30_000,
    })
    expect(new URL(page.url()).pathname).toBe('/careers')
    expect(await isSameDocument(page)).toBe(false)
  }

  /** Clicks a link to `href` added to the page (no page of the demo links there). */
  const clickNewLink = (page: Page, href: string): Promise<void> =>
    page.evaluate((to) => {
      const link = document.body.appendChild(document.createElement('a'))
      link.href = to
      link.textContent = 'link'
      link.click()
    }, href)

  it('a header link renders the next page on the client: URL, title, content, one payload request, page_view', async () => {
    const { context, page, problems } = await openPage(browser)
    const payloads: string[] = []
    const documents: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/_payload.json')) payloads.push(request.url())
      if (request.resourceType() === 'document') documents.push(request.url())
    })
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    expect(await pageViews(page)).toEqual([
      { event: 'page_view', page_title: await builtTitle(site.outDir, '/'), page_path: '/' },
    ])
    await markDocument(page)
    const homeMain = await textOf(page, '#main')

    await page.click('header .site-nav a[href="/about-us"]')
    await waitForPageView(page, '/about-us', 2)

    const title = await builtTitle(site.outDir, '/about-us')
    expect(new URL(page.url()).pathname).toBe('/about-us')
    expect(await page.title()).toBe(title)
    expect(await isSameDocument(page)).toBe(true)
    expect(documents).toHaveLength(1)
    const mainText = await textOf(page, '#main')
    expect(mainText).not.toBe(homeMain)
    // The client render shows what the server rendered for that page.
    const served = await context.newPage()
    await served.goto(`${site.url}/about-us`)
    expect(mainText).toBe(await textOf(served, '#main'))
    // Head tags follow the page: the same managed tags as the served page, in any order.
    const headTags = () => [...document.head.querySelectorAll('[data-site-head]')].map((el) => el.outerHTML).sort()
    expect(await page.evaluate(headTags)).toEqual(await served.evaluate(headTags))
    await served.close()

    const aboutPayloads = payloads.filter((url) => new URL(url).pathname === '/about-us/_payload.json')
    expect(aboutPayloads).toHaveLength(1)
    expect(new URL(aboutPayloads[0] as string).searchParams.get('_b')).toBe(site.result.manifest.clientVersion)
    expect((await pageViews(page)).at(-1)).toEqual({ event: 'page_view', page_title: title, page_path: '/about-us' })
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main')
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('back and forward restore the page and its scroll position', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.setViewportSize({ width: 1000, height: 500 })
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    const homeTitle = await page.title()
    const homeMain = await textOf(page, '#main')
    await page.evaluate(() => window.scrollTo(0, 400))
    await page.waitForFunction(() => window.scrollY === 400)
    // A script click keeps the scroll position (a pointer click would scroll the link into view).
    await page.evaluate(() => (document.querySelector('header .site-nav a[href="/about-us"]') as HTMLElement).click())
    await waitForPageView(page, '/about-us', 2)
    expect(await page.evaluate(() => window.scrollY)).toBe(0)

    await page.goBack()
    await waitForPageView(page, '/', 3)
    expect(new URL(page.url()).pathname).toBe('/')
    expect(await page.title()).toBe(homeTitle)
    expect(await textOf(page, '#main')).toBe(homeMain)
    await page.waitForFunction(() => window.scrollY === 400)

    await page.goForward()
    await waitForPageView(page, '/about-us', 4)
    expect(await page.title()).toBe(await builtTitle(site.outDir, '/about-us'))
    expect(await isSameDocument(page)).toBe(true)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('back and forward over a #anchor entry restore its scroll position, also after another page', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.setViewportSize({ width: 1000, height: 500 })
    await page.goto(`${site.url}/about-us`)
    await waitForHydration(page)
    await markDocument(page)
    await page.evaluate(() => window.scrollTo(0, 400))
    await page.waitForFunction(() => window.scrollY === 400)
    // An anchor link on the page: the browser jumps and makes the entry (no client navigation).
    await clickNewLink(page, '#c203')
    await page.waitForFunction(() => location.hash === '#c203' && window.scrollY > 400)
    await page.waitForTimeout(300) // the scroll position is saved after a quiet time
    const atAnchor = await page.evaluate(() => window.scrollY)
    await page.evaluate(() => (document.querySelector('a[href="/careers"]') as HTMLElement).click())
    await waitForPageView(page, '/careers', 2)
    expect(await page.evaluate(() => window.scrollY)).toBe(0)

    await page.goBack()
    await waitForPageView(page, '/about-us', 3)
    expect(new URL(page.url()).hash).toBe('#c203')
    await page.waitForFunction((y) => window.scrollY === y, atAnchor)

    await page.goBack()
    await page.waitForFunction(() => location.hash === '')
    await page.waitForFunction(() => window.scrollY === 400)
    expect(await isSameDocument(page)).toBe(true)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('back to a page left by a full page load shows it where the visitor left it, and the first action does not move it', async () => {
    const { context, page, problems } = await openRouted('/about-us', (p) =>
      p.setViewportSize({ width: 1000, height: 500 }),
    )
    await page.evaluate(() => window.scrollTo(0, 600))
    await page.waitForTimeout(300) // the scroll position is saved after a quiet time
    // A link the router leaves to the browser: the next page is another document.
    await page.evaluate(() => {
      const link = document.body.appendChild(document.createElement('a'))
      link.href = '/imprint'
      link.rel = 'external'
      link.click()
    })
    await page.waitForURL(`${site.url}/imprint`)
    await page.goBack()
    await page.waitForURL(`${site.url}/about-us`)
    expect(await isSameDocument(page)).toBe(false)
    // Before the fix the page came back at the top (the entry's scroll restoration is manual) …
    await page.waitForFunction(() => window.scrollY === 600, undefined, { timeout: 3000 })
    // … and jumped to 600 at the visitor's first action, when the client loaded, wherever they had scrolled to.
    await page.mouse.move(40, 40)
    await page.mouse.wheel(0, -200)
    await page.waitForFunction(() => window.scrollY === 400)
    // on a busy machine those may come before the first paint, when the loader does not listen yet: move on until
    // the client loads (a move scrolls nothing)
    await waitForHydration(page)
    // the router has started (it adds the route announcer)
    await page.waitForFunction(() => document.getElementById('site-route-announcer') !== null)
    await page.waitForTimeout(300)
    expect(await page.evaluate(() => window.scrollY)).toBe(400)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a link to a #section of another page focuses that section, where the view scrolled to', async () => {
    // focus on the main landmark would have a keyboard or screen reader user start from the top of the page
    const { context, page, problems } = await openPage(browser)
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    await clickNewLink(page, '/about-us#c203')
    await waitForPageView(page, '/about-us', 2)
    expect(await isSameDocument(page)).toBe(true)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('c203')
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a payload that fails to load becomes a full page load, also for the same link again within seconds', async () => {
    const { context, page, problems } = await openPage(browser)
    const documents: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname)
    })
    await page.route('**/careers/_payload.json*', (route) => route.fulfill({ status: 500, body: 'down' }))
    for (const round of [1, 2]) {
      if (round === 1) await page.goto(`${site.url}/about-us`)
      else await page.goBack()
      await page.waitForURL(`${site.url}/about-us`)
      await waitForHydration(page)
      await markDocument(page)
      await page.evaluate(() => (document.querySelector('a[href="/careers"]') as HTMLElement).click())
      await page.waitForFunction(() => location.pathname === '/careers')
      await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Work with us')
      expect(await isSameDocument(page), `round ${round}`).toBe(false)
      expect(
        documents.filter((path) => path === '/careers'),
        `round ${round}`,
      ).toHaveLength(round)
    }
    // The failed payload requests are the only errors.
    expect(problems.errors.filter((error) => !/status of 500/.test(error))).toEqual([])
    await context.close()
  })

  it('a payload request that is never answered (a stalled connection) becomes a full page load, not a dead link', async () => {
    const { context, page, problems } = await openPage(browser)
    // Answers nothing, ever: the request ends only when the page gives it up.
    await page.route('**/careers/_payload.json*', () => undefined)
    await page.goto(`${site.url}/about-us`)
    await waitForHydration(page)
    await markDocument(page)
    // Before the fix the click waited for ever: the URL and the page stayed those of /about-us.
    await expectCareersLoadedInFull(page)
    expect(problems.errors.filter((error) => !/ERR_TIMED_OUT|aborted|signal timed out/i.test(error))).toEqual([])
    await context.close()
  })

  it('a template chunk that is never answered (a stalled connection) becomes a full page load, not an endless loading bar', async () => {
    // The home page keeps its server markup: the templates /careers renders with are not loaded yet.
    const { context, page, problems } = await openRouted('/')
    const stalled: string[] = []
    await page.route('**/_site/assets/*.js', (route) => {
      stalled.push(route.request().url())
    })
    // Before the fix the click waited for ever: the loading bar stayed, the URL and the page those of /.
    await expectCareersLoadedInFull(page)
    expect(stalled.length).toBeGreaterThan(0)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('back/forward after a full page load of a back/forward shows the page of the URL, before the client has loaded', async () => {
    const { context, page, problems } = await openPage(browser)
    // The home page's payload fails: back to it is loaded in full, in the entry the router made.
    await page.route('**/_payload.json?*', (route) =>
      new URL(route.request().url()).pathname === '/_payload.json' ? route.fulfill({ status: 500 }) : route.fallback(),
    )
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await page.mouse.move(40, 40)
    await page.waitForFunction(() => (history.state as { site?: number } | null)?.site === 1)
    await markDocument(page)
    await page.evaluate(() => (document.querySelector('a[href="/careers"]') as HTMLElement).click())
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Work with us')
    await page.goBack()
    await page.waitForFunction(() => document.getElementById('__SITE_LOADER__') && !('__e2eMark' in window))
    expect(new URL(page.url()).pathname).toBe('/')
    // No action of the visitor on the new page (its client loads at the first one): forward again.
    await page.goForward()
    // Before the fix the browser went to the router's entry within the new document, and nothing showed its page:
    // the URL was /careers, the page the home page.
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Work with us')
    expect(new URL(page.url()).pathname).toBe('/careers')
    expect(problems.errors.filter((error) => !/status of 500/.test(error))).toEqual([])
    await context.close()
  })

  it('a payload whose page is not one a build writes (`"page": {}`) becomes a full page load, not an empty page', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.route('**/careers/_payload.json*', async (route) => {
      const body = await (await route.fetch()).json()
      await route.fulfill({ json: { ...body, page: {} } })
    })
    await page.goto(`${site.url}/about-us`)
    await waitForHydration(page)
    await markDocument(page)
    await page.evaluate(() => (document.querySelector('a[href="/careers"]') as HTMLElement).click())
    await page.waitForFunction(() => document.querySelector('h1')?.textContent === 'Work with us')
    expect(new URL(page.url()).pathname).toBe('/careers')
    expect(await isSameDocument(page)).toBe(false)
    expect(await page.title()).toBe(await builtTitle(site.outDir, '/careers'))
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a payload of another page (a host answering one payload for every path) becomes a full page load of the link', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.route('**/careers/_payload.json*', async (route) => {
      const home = await route.fetch({ url: route.request().url().replace('/careers/_payload.json', '/_payload.json') })
      await route.fulfill({ response: home })
    })
    await page.goto(`${site.url}/about-us`)
    await waitForHydration(page)
    await markDocument(page)
    // Before the fix the home page was rendered at /careers.
    await expectCareersLoadedInFull(page)
    expect(await page.title()).toBe(await builtTitle(site.outDir, '/careers'))
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('switching language loads that locale’s initial data and shows the translated header and footer', async () => {
    const { context, page, problems } = await openPage(browser)
    const initialData: string[] = []
    page.on('request', (request) => {
      if (request.url().includes('/_site/data/')) initialData.push(new URL(request.url()).pathname)
    })
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    expect(initialData.every((path) => path.startsWith('/_site/data/initial-en-'))).toBe(true)

    await page.click('header .lang__toggle')
    await page.click('header a[hreflang="pl"]')
    await waitForPageView(page, '/pl', 2)

    expect(await isSameDocument(page)).toBe(true)
    expect(initialData.some((path) => /^\/_site\/data\/initial-pl-[^/]+\.json$/.test(path))).toBe(true)
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('pl')
    expect(await page.title()).toBe(await builtTitle(site.outDir, '/pl'))
    expect(await page.locator('footer a[href="/pl/polityka-prywatnosci"]').count()).toBeGreaterThan(0)
    expect(await page.locator('footer a[href="/policy"]').count()).toBe(0)
    // Header and footer read exactly as on the Polish page the server rendered.
    const served = await context.newPage()
    await served.goto(`${site.url}/pl`)
    for (const selector of ['#__site > header', '#__site > footer']) {
      expect(await textOf(page, selector), selector).toBe(await textOf(served, selector))
    }
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a redirect payload is a replace-style navigation: the redirecting URL leaves no history entry', async () => {
    const { context, page, problems } = await openPage(browser)
    // the target's payload is held back (its prefetch as well): until it has loaded, the address bar stays put
    let release: () => void = () => {}
    const held = new Promise<void>((done) => (release = done))
    await page.route(
      (url) => url.pathname === '/services/_payload.json',
      async (route) => {
        await held
        await route.continue()
      },
    )
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    const entries = await page.evaluate(() => history.length)
    // /old-services is a redirect record of the demo (301 to /services); no page links to it.
    const redirected = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/old-services/_payload.json',
    )
    await clickNewLink(page, '/old-services')
    await (await redirected).finished()
    await page.waitForTimeout(300)
    expect(new URL(page.url()).pathname).toBe('/')
    release()
    await waitForPageView(page, '/services', 2)
    expect(new URL(page.url()).pathname).toBe('/services')
    expect(await page.title()).toBe(await builtTitle(site.outDir, '/services'))
    expect(await isSameDocument(page)).toBe(true)
    expect(await page.evaluate(() => history.length)).toBe(entries + 1)
    await page.goBack()
    await waitForPageView(page, '/', 3)
    expect(await isSameDocument(page)).toBe(true)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it("a redirect payload keeps the link's #fragment and query, as the host's 301 would", async () => {
    const { context, page, problems } = await openPage(browser)
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    // /old-services is a redirect record of the demo (301 to /services); c403 is a content element of /services.
    await clickNewLink(page, '/old-services?utm_source=mail#c403')
    await waitForPageView(page, '/services', 2)
    const url = new URL(page.url())
    expect(`${url.pathname}${url.search}${url.hash}`).toBe('/services?utm_source=mail#c403')
    expect(await isSameDocument(page)).toBe(true)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a page reached with a trailing slash counts its page view at its own path', async () => {
    // Hosts that keep each page in a folder (nginx, S3 websites, GitHub Pages) redirect /about-us to /about-us/:
    // the tag manager would count one page at two paths, the first load's and the client navigations'.
    const { context, page, problems } = await openPage(browser)
    await page.goto(`${site.url}/about-us/`)
    await waitForHydration(page)
    await clickNewLink(page, '/services/')
    await waitForPageView(page, '/services', 2)
    expect((await pageViews(page)).map((view) => view.page_path)).toEqual(['/about-us', '/services'])
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a page reached at its index.html and links to one ask the payload of the page, not of `…/index.html/`', async () => {
    // Static hosts serve a page at /about-us/index.html too: back to it, or a link to /services/index.html, asked
    // /about-us/index.html/_payload.json (a 404) and loaded the page in full.
    const payloads: string[] = []
    const { context, page, problems } = await openRouted('/about-us/index.html', async (opened) =>
      opened.on('request', (request) => {
        if (request.url().includes('/_payload.json')) payloads.push(new URL(request.url()).pathname)
      }),
    )
    const views = (n: number) => expect.poll(async () => (await pageViews(page)).length, { timeout: 10_000 }).toBe(n)
    await clickNewLink(page, '/services/index.html')
    await views(2)
    expect(await page.title()).toBe(await builtTitle(site.outDir, '/services'))
    await page.goBack()
    await views(3)
    expect(await page.title()).toBe(await builtTitle(site.outDir, '/about-us'))
    expect(new URL(page.url()).pathname).toBe('/about-us/index.html')
    expect(await isSameDocument(page)).toBe(true)
    expect(payloads).toContain('/services/_payload.json')
    expect(payloads).toContain('/about-us/_payload.json')
    expect(payloads.filter((path) => path.includes('index.html'))).toEqual([])
    // page views name each page by its path, as at /about-us and /about-us/: one page, one path
    expect((await pageViews(page)).map((view) => view.page_path)).toEqual(['/about-us', '/services', '/about-us'])
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a link whose #fragment is a malformed escape still finishes its navigation', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    await clickNewLink(page, '/services#%E0%A4%A')
    // the page view is sent once the page is in place: before, finding the fragment's element threw first
    await waitForPageView(page, '/services', 2)
    expect(await page.title()).toBe(await builtTitle(site.outDir, '/services'))
    expect(await isSameDocument(page)).toBe(true)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('back to a #section entry of the shown page while a link is loading stays on that page', async () => {
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let requested!: () => void
    const payloadRequested = new Promise<void>((resolve) => {
      requested = resolve
    })
    // held from the start: the header's Careers link is prefetched once in view, maybe before the click
    const { context, page, problems } = await openRouted('/about-us', (opened) =>
      opened.route('**/careers/_payload.json*', async (route) => {
        requested()
        await released
        await route.continue()
      }),
    )
    // The browser makes this entry itself: same page, only the fragment differs.
    await clickNewLink(page, '#c203')
    await page.waitForFunction(() => location.hash === '#c203')
    await page.evaluate(() => (document.querySelector('a[href="/careers"]') as HTMLElement).click())
    await payloadRequested
    // The visitor changes their mind before the page arrives: back, as a browser's own back cancels a navigation.
    await page.goBack()
    await page.waitForFunction(() => location.hash === '')
    const arrived = page.waitForResponse('**/careers/_payload.json*')
    release()
    await (await arrived).finished()
    // Before the fix the abandoned navigation still rendered Careers and pushed its URL after the back.
    await page.waitForFunction(() => document.getElementById('site-loading-bar')?.dataset.state === 'idle')
    await page.waitForTimeout(1000)
    expect(new URL(page.url()).pathname).toBe('/about-us')
    expect(await page.title()).toBe(await builtTitle(site.outDir, '/about-us'))
    expect(await textOf(page, 'h1')).toBe('About Amberline')
    expect(await page.evaluate(() => document.getElementById('site-loading-bar')?.dataset.state)).toBe('idle')
    expect(await isSameDocument(page)).toBe(true)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a link to the page the tab is at, clicked before the router has loaded, adds no history entry', async () => {
    const { context, page, problems } = await openPage(browser)
    // The navigation chunk (the only one with the route announcer's id) waits until released.
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route('**/_site/assets/*.js', async (route) => {
      const response = await route.fetch()
      const body = await response.text()
      if (body.includes(NAVIGATION_CHUNK_MARK)) await released
      await route.fulfill({ response, body })
    })
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    const entries = await page.evaluate(() => history.length)
    expect(await page.evaluate(() => history.state)).toBeNull()
    await page.evaluate(() => (document.querySelector('header a[href="/"]') as HTMLElement).click())
    release()
    await waitForPageView(page, '/', 2)
    // Before the fix the click waiting for the router was always a push: Back then stayed on the same page.
    expect(await page.evaluate(() => history.length)).toBe(entries)
    expect(new URL(page.url()).pathname).toBe('/')
    expect(await isSameDocument(page)).toBe(true)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a link clicked while the navigation chunk is never answered (a stalled connection) loads its page in full', async () => {
    const { context, page, problems } = await openPage(browser)
    // The navigation chunk (the only one with the route announcer's id) is never answered; the others are.
    await page.route('**/_site/assets/*.js', async (route) => {
      const response = await route.fetch()
      const body = await response.text()
      if (!body.includes(NAVIGATION_CHUNK_MARK)) await route.fulfill({ response, body })
    })
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    // Before the fix the click waited for the chunk for ever: every page link of the tab did nothing.
    await expectCareersLoadedInFull(page)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a #section link on a not-found page only scrolls: no endless reload of its URL', async () => {
    const { context, page, problems } = await openRouted('/no-such-page')
    await clickNewLink(page, '#x')
    // Before the fix every popstate loaded the URL again (a fragment navigation: another popstate), the page never answered.
    const answered = await Promise.race([
      page.evaluate(() => location.hash),
      new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), 5000)),
    ])
    expect(answered).toBe('#x')
    expect(new URL(page.url()).pathname).toBe('/no-such-page')
    expect(await isSameDocument(page)).toBe(true)
    expect(problems.errors.filter((error) => !/status of 404/.test(error))).toEqual([])
    await context.close()
  })
})
