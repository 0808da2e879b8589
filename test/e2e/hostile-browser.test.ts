/**
 * Hostile content in a real browser: the hostile corpus
 * (test/fixtures/hostile-site) is built with `build()`, served by the static
 * server, and a handful of its pages are opened in Debian's Chromium. Every
 * payload of the corpus either sets `window.__xss` or calls `alert`: neither may
 * happen after load, after synthetic events on every element, nor after client
 * navigations through the page's links.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, BrowserContext, Dialog, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningServer, startStaticServer } from '../../src/serve/server.js'
import { buildHostileSite, type HostileBuild } from '../integration/hostile-helpers.js'
import { hasChromium, isSameDocument, launchBrowser, markDocument, waitForHydration } from './helpers/browser.js'

const PAGES = [
  '/',
  '/xss/meta',
  '/xss/seo',
  '/xss/content',
  '/xss/links',
  '/xss/unicode',
  '/broken/types',
  '/broken/elements',
  '/weird/%22%3E%3Cimg%20src%3Dx%20onerror%3Dwindow.__xss%3D1%3E',
  '/pl/xss/tresc',
  '/de/xss/inhalt',
  '/de/%C3%BCber-uns',
  '/no-such-page',
]
/** Same-origin links clicked per page (client navigation, then back). */
const CLICKS_PER_PAGE = 6
/** Redirect pages are opened on their own (one of them leaves for //evil.example, which does not resolve here). */
const REDIRECT_LINK_RE = /\/go\//

interface Visit {
  dialogs: string[]
  errors: string[]
  hydrated: boolean
}

type SentinelWindow = Window & { __xss?: unknown; __xssHits?: unknown[] }

/** Records every write to `window.__xss`, even one that is undone later. */
function trapSentinel(): void {
  const w = window as SentinelWindow
  let value: unknown
  const hits: unknown[] = []
  Object.defineProperty(w, '__xssHits', { value: hits, enumerable: false })
  Object.defineProperty(w, '__xss', {
    configurable: false,
    get: () => value,
    set: (next: unknown) => {
      hits.push(next)
      value = next
    },
  })
}

/**
 * A fresh context and page (no service worker) with the sentinel trap installed; every dialog is
 * dismissed after `onDialog` has seen it.
 */
async function openTrapped(
  browser: Browser,
  onDialog: (dialog: Dialog, page: Page) => void,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ serviceWorkers: 'block' })
  const page = await context.newPage()
  page.on('dialog', (dialog) => {
    onDialog(dialog, page)
    void dialog.dismiss()
  })
  await page.addInitScript(trapSentinel)
  return { context, page }
}

/** `page.evaluate`, again after the load when a navigation (meta refresh, full reload) replaced the document meanwhile. */
async function settledEvaluate<T>(page: Page, fn: () => T): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await page.evaluate(fn)
    } catch (error) {
      if (attempt >= 3 || !/context was destroyed|navigat/i.test(String(error))) throw error
      await page.waitForLoadState('load')
    }
  }
}

const sentinel = (page: Page) =>
  settledEvaluate(page, () => {
    const w = window as SentinelWindow
    return { value: w.__xss, hits: [...(w.__xssHits ?? [])] }
  })

/** Markup a payload could have left in the live DOM: handlers, script URLs, foreign scripts. */
const domProblems = (page: Page) =>
  settledEvaluate(page, () => {
    const problems: string[] = []
    const bad = /^(javascript|vbscript|data):/i
    for (const el of Array.from(document.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        if (/^on/i.test(attr.name)) problems.push(`<${el.localName} ${attr.name}>`)
        if (attr.name === 'srcdoc') problems.push(`<${el.localName} srcdoc>`)
        if (
          ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster'].includes(attr.name) &&
          bad.test(attr.value.replace(/[\u0000-\u0020]/g, ''))
        ) {
          problems.push(`<${el.localName} ${attr.name}=${attr.value.slice(0, 40)}>`)
        }
      }
    }
    // The boot JSON, the client's loader (at most one, the renderer's own) and module scripts it imported.
    const loaders = Array.from(document.scripts).filter((script) => script.id === '__SITE_LOADER__')
    if (loaders.length > 1) problems.push(`${loaders.length} client loaders`)
    for (const script of Array.from(document.scripts)) {
      const ok =
        script.type === 'application/json' ||
        (script.type === 'module' && script.src.startsWith(`${location.origin}/_site/`)) ||
        (script === loaders[0] &&
          script.type === 'module' &&
          !script.src &&
          script.text.startsWith('const s=["/_site/'))
      if (!ok) problems.push(`script type=${script.type} src=${script.src} text=${script.text.slice(0, 40)}`)
    }
    if (document.querySelectorAll('title').length > 1)
      problems.push(`${document.querySelectorAll('title').length} <title> elements`)
    return problems
  })

/** Fires the events inline handlers listen to on every element, as a visitor's mouse and keyboard would. */
const provokeHandlers = (page: Page) =>
  settledEvaluate(page, () => {
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      for (const type of ['mouseover', 'mouseenter', 'focus', 'load', 'error', 'animationstart'])
        el.dispatchEvent(new Event(type, { bubbles: false }))
      if (el instanceof HTMLElement && el.tabIndex >= 0) el.focus()
    }
  })

describe.skipIf(!hasChromium)('hostile corpus in Chromium', () => {
  let site: HostileBuild
  let server: RunningServer
  let browser: Browser
  const visits = new Map<string, Visit>()

  beforeAll(async () => {
    ;[site, browser] = await Promise.all([
      buildHostileSite(),
      // Names other than 127.0.0.1 do not resolve there: a payload cannot reach evil.example.
      launchBrowser(),
    ])
    expect(site.result.failures).toEqual([])
    server = await startStaticServer({ dir: site.outDir, host: '127.0.0.1', port: 0 })
  }, 240_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await site?.close()
  })

  it('control: the harness notices a payload that does run (a page the test writes itself)', async () => {
    await mkdir(join(site.outDir, 'harness-control'), { recursive: true })
    await writeFile(
      join(site.outDir, 'harness-control', 'index.html'),
      '<!doctype html><title>control</title><img src=x onerror="window.__xss=1"><script>alert(1)</script>',
    )
    const dialogs: string[] = []
    const { context, page } = await openTrapped(browser, (dialog) => dialogs.push(dialog.message()))
    try {
      await page.goto(`${server.url}/harness-control/`, { waitUntil: 'load' })
      await page.waitForFunction(() => (window as SentinelWindow).__xss === 1, undefined, { timeout: 5_000 })
      expect(await sentinel(page)).toEqual({ value: 1, hits: [1] })
      expect(dialogs).toEqual(['1'])
    } finally {
      await context.close()
    }
  })

  it.each(PAGES)(
    'no payload runs on %s: after load, events on every element, and client navigations',
    async (path) => {
      const visit: Visit = { dialogs: [], errors: [], hydrated: false }
      visits.set(path, visit)
      const { context, page } = await openTrapped(browser, (dialog, on) =>
        visit.dialogs.push(`${dialog.type()}: ${dialog.message()} (on ${on.url()})`),
      )
      page.on('pageerror', (error) => visit.errors.push(error.message))
      try {
        await page.goto(`${server.url}${path}`, { waitUntil: 'load' })
        visit.hydrated = await page
          .waitForFunction(() => (window as Window & { __site?: unknown }).__site !== undefined, undefined, {
            timeout: 10_000,
          })
          .then(
            () => true,
            () => false,
          )
        expect(await sentinel(page)).toEqual({ value: undefined, hits: [] })
        expect(await domProblems(page)).toEqual([])

        await provokeHandlers(page)
        await page.mouse.move(10, 10)
        await page.mouse.move(400, 300)
        expect(await sentinel(page)).toEqual({ value: undefined, hits: [] })

        const start = page.url()
        const hrefs = await page.evaluate(() => [
          ...new Set(
            [
              ...document.querySelectorAll<HTMLAnchorElement>('main a[href]'),
              ...document.querySelectorAll<HTMLAnchorElement>('header nav a[href]'),
            ]
              .filter((a) => a.origin === location.origin && !a.hash)
              .map((a) => a.getAttribute('href') ?? ''),
          ),
        ])
        for (const href of hrefs.filter((h) => !REDIRECT_LINK_RE.test(h)).slice(0, CLICKS_PER_PAGE)) {
          const link = page.locator(`a[href="${href.replace(/["\\]/g, '\\$&')}"]`).first()
          if (!(await link.isVisible().catch(() => false))) continue
          await link.click({ timeout: 5_000 }).catch(() => undefined)
          await page.waitForLoadState('load')
          await page.waitForTimeout(200)
          expect(await sentinel(page), `after clicking ${href} on ${path}`).toEqual({ value: undefined, hits: [] })
          expect(await domProblems(page), `after clicking ${href} on ${path}`).toEqual([])
          if (page.url() !== start) {
            await page.goBack({ waitUntil: 'load' }).catch(() => undefined)
            await page.waitForTimeout(200)
            expect(await sentinel(page), `after going back from ${href} on ${path}`).toEqual({
              value: undefined,
              hits: [],
            })
          }
        }
        expect(visit.dialogs).toEqual([])
      } finally {
        await context.close()
      }
    },
    120_000,
  )

  it('a redirect link leads to its internal target without running a payload', async () => {
    const dialogs: string[] = []
    const { context, page } = await openTrapped(browser, (dialog) => dialogs.push(dialog.message()))
    try {
      await page.goto(`${server.url}/go/internal`, { waitUntil: 'load' })
      await page.waitForURL(`${server.url}/about-us`, { timeout: 10_000 })
      expect(await sentinel(page)).toEqual({ value: undefined, hits: [] })
      await page.goto(`${server.url}/`, { waitUntil: 'load' })
      await page.locator('footer a[href="/go/internal"]').first().click()
      await page.waitForURL(`${server.url}/about-us`, { timeout: 10_000 })
      expect(await sentinel(page)).toEqual({ value: undefined, hits: [] })
      expect(dialogs).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)

  // Any https URL typed as a YouTube/Vimeo video once became an unsandboxed frame.
  it('frames only YouTube and Vimeo players, sandboxed, on load and after a client navigation', async () => {
    const { context, page } = await openTrapped(browser, () => {})
    const frames = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('iframe')].map((frame) => ({
          host: new URL(frame.src).host,
          sandbox: [...frame.sandbox].sort(),
        })),
      )
    const sandbox = [
      'allow-popups',
      'allow-popups-to-escape-sandbox',
      'allow-presentation',
      'allow-same-origin',
      'allow-scripts',
    ]
    const expected = [
      { host: 'www.youtube-nocookie.com', sandbox },
      { host: 'player.vimeo.com', sandbox },
    ]
    const notPlayer = 'main a[href="https://evil.example/video/1"]'
    try {
      await page.goto(`${server.url}/xss/content`, { waitUntil: 'load' })
      expect(await frames()).toEqual(expected)
      expect(await page.locator(notPlayer).textContent()).toBe('Not a player')

      await page.goto(`${server.url}/`, { waitUntil: 'load' })
      await waitForHydration(page)
      await markDocument(page)
      await page.locator('main a[href="/xss/content"]').first().click()
      await page.waitForURL(`${server.url}/xss/content`)
      await page.locator(notPlayer).waitFor()
      expect(await isSameDocument(page)).toBe(true)
      expect(await frames()).toEqual(expected)
    } finally {
      await context.close()
    }
    const report = site.result.skipped.filter((s) => s.reason.includes('not embedded'))
    expect(report.map((s) => [s.item, s.reason])).toEqual([
      ['/xss/content', 'video/vimeo file not embedded: "https://evil.example/video/1" is not a player URL'],
    ])
  }, 60_000)

  it('every hostile page hydrates without an uncaught error', () => {
    const failed = [...visits]
      .filter(([, v]) => !v.hydrated || v.errors.length > 0)
      .map(([path, v]) => ({ path, hydrated: v.hydrated, errors: v.errors.slice(0, 3) }))
    expect(failed).toEqual([])
  })
})
