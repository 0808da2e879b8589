/**
 * Size: layouts, content elements, the error page and each locale's texts are
 * loaded on demand, each its own chunk. A page whose main needs no template code (no
 * template marked 'use client', as all of the demo's) preloads and imports only its
 * locale's texts before it hydrates, its main keeping the server's markup; a client
 * navigation imports the next page's templates before rendering it; a chunk that fails
 * to load is a chunk load error (a guarded full page load).
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleClient } from '../../src/hydration/bundle.js'
import type { BootState, TemplateChunks } from '../../src/shared/contract.js'
import { toHtmlFile } from '../../src/shared/url.js'
import { clientModulesOf } from '../shared/client-modules.js'
import {
  actOn,
  hasChromium,
  isSameDocument,
  markDocument,
  openPage,
  recordHydrationTime,
  scriptsBeforeHydration,
  waitForHydration,
} from './helpers/browser.js'
import { builtTitle, pageViews, waitForPageView } from './helpers/pages.js'
import { type BuiltSite, REPO_ROOT, useSiteAndBrowser } from './helpers/site.js'

interface PageScripts {
  entry: string
  preloads: string[]
}

describe.skipIf(!hasChromium)('templates loaded on demand', () => {
  let site: BuiltSite
  let browser: Browser

  useSiteAndBrowser((built, launched) => {
    site = built
    browser = launched
  })
  // The same bundle as the build's (content-hashed, so the same URLs): which chunk is which template.
  let chunks: TemplateChunks
  beforeAll(async () => {
    chunks = (await bundleClient({ root: REPO_ROOT })).assets.templateChunks as TemplateChunks
  })
  const templateUrls = () =>
    new Set([...Object.values(chunks.layouts), ...Object.values(chunks.content), chunks.ErrorPage ?? []].flat())

  /** The module script and the modulepreloads the build's client loader in a page names. */
  async function scriptsOf(path: string): Promise<PageScripts> {
    const { scripts, preloads } = clientModulesOf(await readFile(join(site.outDir, toHtmlFile(path)), 'utf8'))
    const entry = scripts[0]
    if (!entry) throw new Error(`${path}: no module script`)
    return { entry, preloads }
  }

  it('a page whose templates are markup only preloads its locale’s texts, loads no template before it hydrates and keeps its main', async () => {
    const home = await scriptsOf('/')
    const cases = await scriptsOf('/case-studies')
    const polish = await scriptsOf('/pl')
    expect(chunks.client).toEqual([])
    for (const scripts of [home, cases, polish])
      expect(scripts.preloads.filter((url) => templateUrls().has(url))).toEqual([])
    expect(home.preloads).toEqual(cases.preloads)
    expect(home.preloads).toContain(chunks.texts?.en?.[0])
    expect(polish.preloads).toContain(chunks.texts?.pl?.[0])
    expect(home.preloads).not.toContain(chunks.texts?.pl?.[0])

    const { context, page, problems } = await openPage(browser)
    await page.addInitScript(() => {
      // The main element and a content element in it, as the server sent them, before the client runs.
      document.addEventListener('DOMContentLoaded', () => {
        const w = window as unknown as { __main?: Element | null; __element?: Element | null }
        w.__main = document.getElementById('main')
        w.__element = document.querySelector('#main [id^="c"]')
      })
    })
    await recordHydrationTime(page)
    for (const [path, scripts] of [
      ['/', home],
      ['/case-studies', cases],
      ['/pl', polish],
    ] as const) {
      await page.goto(`${site.url}${path}`)
      await waitForHydration(page)
      const before = await scriptsBeforeHydration(page)
      expect(new Set(before), path).toEqual(new Set([scripts.entry, ...scripts.preloads]))
      // Hydration kept the server's elements of the main: the same nodes, still in the document.
      const kept = await page.evaluate(() => {
        const w = window as unknown as { __main?: Element | null; __element?: Element | null }
        return Boolean(w.__element) && w.__main === document.getElementById('main') && w.__element?.isConnected === true
      })
      expect(kept, path).toBe(true)
    }
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('fetches no script before the page has painted; then the entry and its preloads, and hydrates (LCP)', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.goto(`${site.url}/about-us`)
    await waitForHydration(page)
    const timing = await page.evaluate(() => ({
      painted: performance.getEntriesByName('first-paint')[0]?.startTime,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime })),
    }))
    expect(timing.painted).toBeTypeOf('number')
    const { entry, preloads } = await scriptsOf('/about-us')
    const fetched = timing.scripts.map((script) => script.path)
    for (const url of [entry, ...preloads]) expect(fetched).toContain(url)
    const early = timing.scripts.filter((script) => script.startTime < (timing.painted as number))
    expect(early, `painted at ${timing.painted} ms`).toEqual([])
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a page that needs no code before the visitor acts loads none until the first action: its page view, links and menus work without it', async () => {
    const { context, page, problems } = await openPage(browser)
    const scripts = () =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname)
          .filter((path) => path.endsWith('.js')),
      )
    const hydrated = () =>
      page.evaluate(() => (window as unknown as Record<symbol, unknown>)[Symbol.for('site:page')] !== undefined)
    await page.goto(`${site.url}/about-us`)
    await page.waitForLoadState('networkidle')
    await page.waitForTimeout(1_000)
    expect(await scripts()).toEqual([])
    expect(await hydrated()).toBe(false)
    expect(await pageViews(page)).toEqual([
      { event: 'page_view', page_title: await builtTitle(site.outDir, '/about-us'), page_path: '/about-us' },
    ])
    // The menu is the browser's popover; a link is a link: a full page load, its page view counted by that page.
    await page.evaluate(() => (document.querySelector('.menu-toggle') as HTMLElement).click())
    expect(await page.evaluate(() => document.getElementById('site-menu')?.matches(':popover-open'))).toBe(true)
    await markDocument(page)
    await page.evaluate(() => (document.querySelector('#site-menu a[href="/services"]') as HTMLElement).click())
    await page.waitForURL(`${site.url}/services`)
    await page.waitForLoadState('load')
    expect(await isSameDocument(page)).toBe(false)
    expect((await pageViews(page)).map((view) => view.page_path)).toEqual(['/services'])
    expect(await scripts()).toEqual([])

    // Each kind of first action loads the client, which hydrates: a key (or the focus it moves) and a mouse.
    await actOn(page, () => page.keyboard.press('Tab'))
    await waitForHydration(page, { act: false })
    const { entry } = await scriptsOf('/services')
    expect(await scripts()).toContain(entry)
    await page.goto(`${site.url}/about-us`)
    await page.waitForTimeout(300)
    expect(await hydrated()).toBe(false)
    await actOn(page)
    await waitForHydration(page, { act: false })
    // Hydrated, the client counted no second page view for the same load.
    expect((await pageViews(page)).map((view) => view.page_path)).toEqual(['/about-us'])
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a client navigation loads the next page’s templates before it renders it', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    expect(await page.locator('.layout--two-columns').count()).toBe(0)
    await page.evaluate(() =>
      (document.querySelector('header .site-nav a[href="/case-studies"]') as HTMLElement).click(),
    )
    await waitForPageView(page, '/case-studies', 2)
    expect(await isSameDocument(page)).toBe(true)
    expect(await page.locator('#main .layout--two-columns').count()).toBe(1)
    const loaded = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
    )
    for (const url of chunks.layouts.TwoColumns ?? []) expect(loaded).toContain(url)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a link in view prefetches its page’s payload only; a link the visitor reaches for also loads its templates (TBT)', async () => {
    // The layout's own chunk (those it shares, e.g. with the runtime, load with client navigation itself).
    const layout = (chunks.layouts.TwoColumns ?? []).slice(0, 1)
    expect(layout).toHaveLength(1)
    const { context, page, problems } = await openPage(browser)
    const loaded = () =>
      page.evaluate(() => performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname))
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    // The header's link to /case-studies is in view: once the client is idle, its payload is fetched.
    await page.waitForFunction(() =>
      performance
        .getEntriesByType('resource')
        .some((entry) => new URL(entry.name).pathname === '/case-studies/_payload.json'),
    )
    // Time for any warming to follow it (it did before: the page's template chunks were imported at once).
    await page.waitForTimeout(500)
    expect((await loaded()).filter((url) => layout.includes(url))).toEqual([])
    await page.locator('header .site-nav a[href="/case-studies"]').first().hover()
    await page.waitForFunction(
      (urls) => performance.getEntriesByType('resource').some((entry) => urls.includes(new URL(entry.name).pathname)),
      layout,
    )
    expect(await loaded()).toContain(layout[0])
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('a template chunk that fails to load turns the navigation into one full page load (reload guard)', async () => {
    // The layout's own chunk (the chunks it shares with others, e.g. the runtime's, load with client navigation itself).
    const missing = (chunks.layouts.TwoColumns ?? []).slice(0, 1)
    expect(missing).toHaveLength(1)
    const { context, page } = await openPage(browser)
    await page.route('**/_site/assets/*.js', (route) =>
      missing.includes(new URL(route.request().url()).pathname) ? route.abort('failed') : route.continue(),
    )
    const documents: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname)
    })
    await page.goto(`${site.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    await page.evaluate(() =>
      (document.querySelector('header .site-nav a[href="/case-studies"]') as HTMLElement).click(),
    )
    await page.waitForURL(`${site.url}/case-studies`)
    await page.waitForLoadState('load')
    expect(await isSameDocument(page)).toBe(false)
    // The loaded page hydrates without that chunk (its main keeps the server's markup); no second reload follows.
    await waitForHydration(page)
    await page.waitForTimeout(1_500)
    expect(documents).toEqual(['/', '/case-studies'])
    expect(await page.locator('#main .layout--two-columns').count()).toBe(1)
    await context.close()
  })
})

describe.skipIf(!hasChromium)('a template marked use client', () => {
  let site: BuiltSite
  let browser: Browser
  let root: string
  let chunks: TemplateChunks

  // The demo project with its Text element marked 'use client', with an effect that shows it ran in the browser.
  async function projectWithClientText(): Promise<string> {
    root = await mkdtemp(join(REPO_ROOT, '.site', 'e2e-use-client-'))
    for (const dir of ['templates', 'config', 'public'])
      await cp(join(REPO_ROOT, dir), join(root, dir), { recursive: true })
    const file = join(root, 'templates/content/Text.tsx')
    const source = await readFile(file, 'utf8')
    // An effect that records its element, and a button that counts its clicks.
    const withEffect = source
      .replace('import {', "import { useEffect, useState } from 'react'\nimport {")
      .replace(
        '  return (',
        [
          '  const [clicks, setClicks] = useState(0)',
          '  useEffect(() => {',
          '    document.documentElement.dataset.textHydrated = String(props.uid)',
          '    const w = window as unknown as { __textEffects?: number[] }',
          '    w.__textEffects = [...(w.__textEffects ?? []), props.uid]',
          '  }, [props.uid])',
          '  return (',
        ].join('\n'),
      )
      .replace(
        '<Heading {...props} />',
        '<Heading {...props} />\n      <button type="button" className="e2e-clicks" onClick={() => setClicks(clicks + 1)}>{clicks}</button>',
      )
    await writeFile(file, `'use client'\n${withEffect}`)
    chunks = (await bundleClient({ root })).assets.templateChunks as TemplateChunks
    return root
  }
  useSiteAndBrowser((built, launched) => {
    site = built
    browser = launched
  }, projectWithClientText)
  afterAll(() => rm(root, { recursive: true, force: true }))

  it('a page that renders it hydrates just its elements (islands): preloads and loads their chunks only, its main kept, and their effects run', async () => {
    expect(chunks.client).toEqual(['content/Text'])
    const html = await readFile(join(site.outDir, toHtmlFile('/')), 'utf8')
    const { preloads } = clientModulesOf(html)
    const island = new Set([...(chunks.islands ?? []), ...(chunks.content.Text ?? [])])
    expect(island.size).toBeGreaterThan(0)
    for (const url of island) expect(preloads).toContain(url)
    // The page's other templates (and the loaders of all of them) wait for a client navigation.
    const others = new Set(
      [
        ...Object.values(chunks.layouts),
        ...Object.entries(chunks.content)
          .filter(([name]) => name !== 'Text')
          .map(([, urls]) => urls),
        chunks.ErrorPage ?? [],
        chunks.main ?? [],
      ]
        .flat()
        .filter((url) => !island.has(url)),
    )
    expect(preloads.filter((url) => others.has(url))).toEqual([])
    // The server decided, and the boot tells the browser: its islands by uid (the elements stay in the page data).
    const boot = JSON.parse(
      /<script id="__SITE_BOOT__" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? 'null',
    ) as BootState
    expect(boot.hydration?.kind).toBe('islands')
    const islands = boot.hydration?.kind === 'islands' ? boot.hydration.islands : []
    expect(islands.map(({ uid, template }) => `${uid} ${template}`).sort()).toEqual(['103 Text', '1601 Text'])

    const { context, page, problems } = await openPage(browser)
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const w = window as unknown as { __main?: Element | null }
        w.__main = document.getElementById('main')
      })
    })
    await recordHydrationTime(page)
    await page.goto(`${site.url}/`)
    // A page with islands loads its client once painted, without waiting for the visitor to act.
    await waitForHydration(page, { act: false })
    // The home page has two Text elements: 103 in a column, 1601 in a shortcut (not 'use client').
    await page.waitForFunction(
      () => ((window as unknown as { __textEffects?: number[] }).__textEffects ?? []).length >= 2,
    )
    expect(
      await page.evaluate(() => [...(window as unknown as { __textEffects: number[] }).__textEffects].sort()),
    ).toEqual([103, 1601])
    // Before it hydrated (once the client is idle, hovered links load the templates of their pages too).
    const loaded = await scriptsBeforeHydration(page)
    expect(loaded.filter((url) => others.has(url))).toEqual([])
    for (const url of island) expect(loaded).toContain(url)
    // The main is the server's element, kept; the islands work.
    expect(
      await page.evaluate(
        () => (window as unknown as { __main?: Element | null }).__main === document.getElementById('main'),
      ),
    ).toBe(true)
    await page.locator('#c103 .e2e-clicks').click()
    await page.locator('#c1601 .e2e-clicks').click()
    await page.locator('#c1601 .e2e-clicks').click()
    expect(await page.locator('#c103 .e2e-clicks').textContent()).toBe('1')
    expect(await page.locator('#c1601 .e2e-clicks').textContent()).toBe('2')

    // A client navigation renders the main in full (the island roots unmounted first), and back.
    await markDocument(page)
    await page.evaluate(() =>
      (document.querySelector('header .site-nav a[href="/case-studies"]') as HTMLElement).click(),
    )
    await waitForPageView(page, '/case-studies', 2)
    expect(await page.locator('#main .layout--two-columns').count()).toBe(1)
    await page.evaluate(() => ((window as unknown as { __textEffects: number[] }).__textEffects = []))
    await page.goBack()
    await waitForPageView(page, '/', 3)
    expect(await isSameDocument(page)).toBe(true)
    await page.waitForFunction(
      () => ((window as unknown as { __textEffects?: number[] }).__textEffects ?? []).length >= 2,
    )
    await page.locator('#c103 .e2e-clicks').click()
    expect(await page.locator('#c103 .e2e-clicks').textContent()).toBe('1')
    expect(problems.errors).toEqual([])
    await context.close()
  })
})
