/**
 * New builds: once `/_site/builds/latest.json` names a build with other client code
 * than the open page's, the next internal navigation is a full page load, at most once per
 * 10 s per path (reload guard in sessionStorage); when the guard blocks, it is a client render.
 * (Builds that change only content keep the client version: test/e2e/deploys.test.ts.)
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { RELOAD_GUARD_KEY } from '../../src/shared/client-constants.js'
import { hasChromium, isSameDocument, markDocument, openPage, waitForHydration } from './helpers/browser.js'
import { waitForPageView } from './helpers/pages.js'
import { type BuiltSite, useSiteAndBrowser } from './helpers/site.js'

const LATEST = '_site/builds/latest.json'

describe.skipIf(!hasChromium)('new build detection', () => {
  let site: BuiltSite
  let browser: Browser

  useSiteAndBrowser((built, launched) => {
    site = built
    browser = launched
  })

  /** Every latest.json request of the page and how it ended, for the message of a read that never comes. */
  const manifestLog = new WeakMap<Page, string[]>()
  const watchManifestReads = (page: Page) => {
    const log: string[] = []
    manifestLog.set(page, log)
    const isManifest = (url: string) => new URL(url).pathname === `/${LATEST}`
    const at = () => `${Math.round(performance.now())} ms`
    page.on('request', (r) => isManifest(r.url()) && log.push(`${at()} asked by ${r.frame().url()}`))
    page.on('response', (r) => isManifest(r.url()) && log.push(`${at()} answered ${r.status()}`))
    page.on('requestfailed', (r) => isManifest(r.url()) && log.push(`${at()} failed: ${r.failure()?.errorText}`))
    page.on('framenavigated', (f) => f === page.mainFrame() && log.push(`${at()} navigated to ${f.url()}`))
  }

  /** Resolves with the client version of the next latest.json the page reads. */
  const nextManifestRead = (page: Page) =>
    page
      .waitForResponse((response) => new URL(response.url()).pathname === `/${LATEST}`, { timeout: 20_000 })
      .catch((error: Error) => {
        const log = manifestLog.get(page) ?? []
        throw new Error(
          `${error.message}\nlatest.json and navigations until ${Math.round(performance.now())} ms:\n${log.join('\n')}`,
        )
      })
      .then(async (response) => ((await response.json()) as { clientVersion: string }).clientVersion)

  /** Opens (or lands on) a page, waits until its first deferred manifest check is done, marks the document. */
  async function settle(page: Page, read: Promise<string>): Promise<string> {
    await waitForHydration(page)
    const id = await read
    await markDocument(page)
    return id
  }

  const clickLink = (page: Page, href: string) =>
    page.evaluate((h) => (document.querySelector(`#__site a[href="${h}"]`) as HTMLElement).click(), href)

  it('makes the next navigation a full load, once per path within 10 s', async () => {
    const { context, page, problems } = await openPage(browser)
    watchManifestReads(page)
    const firstRead = nextManifestRead(page)
    await page.goto(`${site.url}/`)
    expect(await settle(page, firstRead)).toBe(site.result.manifest.clientVersion)

    // Publish a build with other client code beside the served one: only its latest.json reaches the host.
    const next = { id: 'f00dfeedf00dfeed', clientVersion: 'c0ffeec0ffee' }
    await writeFile(join(site.outDir, LATEST), `${JSON.stringify(next)}\n`)
    expect(JSON.parse(await readFile(join(site.outDir, LATEST), 'utf8'))).toEqual(next)

    // The tab becoming visible again triggers a check.
    const visibleRead = nextManifestRead(page)
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')))
    expect(await visibleRead).toBe(next.clientVersion)

    // 1. Stale page, /about-us never reloaded: a full page load.
    let read = nextManifestRead(page)
    await clickLink(page, '/about-us')
    await page.waitForURL(`${site.url}/about-us`)
    expect(await isSameDocument(page)).toBe(false)
    expect(await settle(page, read)).toBe(next.clientVersion)
    let stamps = await page.evaluate(
      (key) => JSON.parse(sessionStorage.getItem(key) ?? '{}') as Record<string, number>,
      RELOAD_GUARD_KEY,
    )
    expect(Object.keys(stamps)).toEqual(['/about-us'])

    // 2. Stale again (the served HTML is still the old build): `/` was never reloaded, a full load.
    read = nextManifestRead(page)
    await clickLink(page, '/')
    await page.waitForURL(`${site.url}/`)
    expect(await isSameDocument(page)).toBe(false)
    await settle(page, read)
    stamps = await page.evaluate(
      (key) => JSON.parse(sessionStorage.getItem(key) ?? '{}') as Record<string, number>,
      RELOAD_GUARD_KEY,
    )
    expect(Object.keys(stamps).sort()).toEqual(['/', '/about-us'])

    // 3. /about-us again within 10 s: the guard blocks the reload, the client renders it.
    await clickLink(page, '/about-us')
    await waitForPageView(page, '/about-us', 2)
    expect(await isSameDocument(page)).toBe(true)
    expect(problems.errors).toEqual([])
    await context.close()
  })
})
