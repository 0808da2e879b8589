/**
 * Open tabs survive deploys, in Chromium: a tab opened on build A, then B (a
 * content change), C (a template change) and D (a content change) published into the served
 * output with `--only`, the tab navigating after each. Each build marks its content (a
 * navigation title in the header, a sentence of /about-us): a page must never show two builds'
 * marks. A content-only build keeps the tab on client navigation; a template change makes its
 * next navigation one full load; the assets of the last builds stay, so no chunk ever fails.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { build } from '../../src/build/build.js'
import type { BuildResult } from '../../src/build/types.js'
import { resolveConfig } from '../../src/config/load.js'
import { selectSite } from '../../src/config/resolve.js'
import { type RunningServer, startStaticServer } from '../../src/serve/server.js'
import { type EditableDemo, editFile, startEditableDemo } from '../integration/build-helpers.js'
import {
  hasChromium,
  isSameDocument,
  launchBrowser,
  markDocument,
  openPage,
  waitForHydration,
} from './helpers/browser.js'
import { waitForPageView } from './helpers/pages.js'
import { REPO_ROOT } from './helpers/site.js'

describe.skipIf(!hasChromium)('open tabs across deploys', () => {
  let demo: EditableDemo
  let root: string
  let out: string
  let server: RunningServer
  let browser: Browser

  /** Publishes a build of the project at `root` into the served folder. */
  async function publish(only?: string[]): Promise<BuildResult> {
    const config = await resolveConfig({ root, apiBaseUrl: demo.api.url, outDir: out })
    const result = await build({ config, site: selectSite(config.sites), only })
    expect(result.failures).toEqual([])
    return result
  }

  /** The marks of build `from` become those of build `to`: a navigation title (header) and a sentence of /about-us. */
  async function markContent(from: string, to: string): Promise<void> {
    await editFile(
      join(demo.content, 'initial-data/en.json'),
      `"title": "About us [${from}]"`,
      `"title": "About us [${to}]"`,
    )
    await editFile(
      join(demo.content, 'pages/en/about-us.json'),
      `Build [${from}]: Amberline`,
      `Build [${to}]: Amberline`,
    )
    await demo.api.reload()
  }

  /** Every build mark a page renders, by letter. */
  const marksOn = (page: Page) =>
    page.evaluate(() => {
      // what the page renders, shown or in a closed menu; not the boot JSON the document was loaded with
      const body = document.body.cloneNode(true) as HTMLElement
      for (const script of Array.from(body.querySelectorAll('script'))) script.remove()
      const text = body.textContent ?? ''
      return [
        ...new Set([...text.matchAll(/About us \[([A-D])\]|Build \[([A-D])\]: Amberline/g)].map((m) => m[1] ?? m[2])),
      ]
    })

  /** Resolves with the next `site:build` event the page dispatches (it learnt of a newer build). */
  const nextBuildEvent = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<{ id: string; reload: boolean }>((resolve) =>
          window.addEventListener('site:build', (event) => resolve((event as CustomEvent).detail), { once: true }),
        ),
    )

  /** Makes the tab read latest.json now (as it does when it becomes visible again). */
  const checkForBuilds = (page: Page) => page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')))

  const clickLink = (page: Page, href: string) =>
    page.evaluate((h) => (document.querySelector(`#__site a[href="${h}"]`) as HTMLElement).click(), href)

  beforeAll(async () => {
    demo = await startEditableDemo('site-e2e-deploys-')
    root = await mkdtemp(join(REPO_ROOT, '.site', 'e2e-deploys-'))
    for (const folder of ['templates', 'config', 'public'])
      await cp(join(REPO_ROOT, folder), join(root, folder), { recursive: true })
    out = join(demo.dir, 'out')
    await editFile(join(demo.content, 'initial-data/en.json'), '"title": "About us"', '"title": "About us [A]"')
    await editFile(
      join(demo.content, 'pages/en/about-us.json'),
      'Amberline Software was founded',
      'Build [A]: Amberline Software was founded',
    )
    await demo.api.reload()
    await publish()
    ;[server, browser] = await Promise.all([
      startStaticServer({ dir: out, host: '127.0.0.1', port: 0 }),
      launchBrowser(),
    ])
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await demo?.close()
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('keeps the tab working: client navigation across content builds, one full load after a template change, never two builds on one page', async () => {
    const { context, page, problems } = await openPage(browser)
    const failedAssets: string[] = []
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/_site/') && response.status() >= 400)
        failedAssets.push(`${response.status()} ${response.url()}`)
    })
    page.on('requestfailed', (request) => failedAssets.push(`failed ${request.url()}`))
    const assetsOfA = await readdir(join(out, '_site/assets'))

    const firstRead = page.waitForEvent('requestfinished', (r) => r.url().endsWith('/_site/builds/latest.json'))
    await page.goto(`${server.url}/`)
    await waitForHydration(page)
    await markDocument(page)
    expect(await marksOn(page)).toEqual(['A'])
    await firstRead

    // B: content only (the navigation title and /about-us). The tab's code is current: it stays on client navigation.
    await markContent('A', 'B')
    const b = await publish(['2'])
    expect(b.only?.fallback).toBeUndefined()
    // the tab learns of it (payloads it prefetched are of A): content only, no reload
    const event = nextBuildEvent(page)
    await checkForBuilds(page)
    expect(await event).toMatchObject({ id: b.buildId, reload: false })
    await clickLink(page, '/about-us')
    await waitForPageView(page, '/about-us', 2)
    expect(await isSameDocument(page)).toBe(true)
    expect(await marksOn(page)).toEqual(['B'])
    // a page with templates this tab has not loaded yet: its lazy chunks load
    await clickLink(page, '/careers')
    await waitForPageView(page, '/careers', 3)
    expect(await isSameDocument(page)).toBe(true)
    expect(await marksOn(page)).toEqual(['B'])

    // C: a template change (styles and a content element's code) and new marks: the next navigation is one full load.
    await editFile(join(root, 'templates/styles.css'), ':root', '.deploy-c { color: #123456 }\n:root')
    await editFile(
      join(root, 'templates/content/Textmedia.tsx'),
      'export default',
      "export const DEPLOY = 'c'\nexport default",
    )
    await markContent('B', 'C')
    const c = await publish(['2'])
    expect(c.manifest.clientVersion).not.toBe(b.manifest.clientVersion)
    expect(c.only?.rerenderedLocales).toEqual(['en', 'pl', 'de'])
    // the tab's own assets are still there
    const statuses = await page.evaluate(
      (urls) =>
        Promise.all(
          urls.map(async (url) => {
            const response = await fetch(url)
            await response.arrayBuffer()
            return response.status
          }),
        ),
      assetsOfA.map((name) => `/_site/assets/${name}`),
    )
    expect(new Set(statuses)).toEqual(new Set([200]))
    const codeEvent = nextBuildEvent(page)
    await checkForBuilds(page)
    expect(await codeEvent).toMatchObject({ id: c.buildId, reload: true })
    await clickLink(page, '/about-us')
    await page.waitForURL(`${server.url}/about-us`)
    await waitForHydration(page)
    expect(await isSameDocument(page)).toBe(false)
    expect(await marksOn(page)).toEqual(['C'])
    await markDocument(page)

    // D: content only again: the tab (now on C's code) navigates on payloads.
    const readOnC = page.waitForEvent('requestfinished', (r) => r.url().endsWith('/_site/builds/latest.json'))
    await readOnC
    await markContent('C', 'D')
    const d = await publish(['2'])
    expect(d.manifest.clientVersion).toBe(c.manifest.clientVersion)
    const contentEvent = nextBuildEvent(page)
    await checkForBuilds(page)
    expect(await contentEvent).toMatchObject({ id: d.buildId, reload: false })
    await clickLink(page, '/')
    await waitForPageView(page, '/', 2)
    await clickLink(page, '/about-us')
    await waitForPageView(page, '/about-us', 3)
    expect(await isSameDocument(page)).toBe(true)
    expect(await marksOn(page)).toEqual(['D'])

    expect(failedAssets).toEqual([])
    expect(problems.errors).toEqual([])
    await context.close()
  })
})
