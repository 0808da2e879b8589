/**
 * The redirect pages `build.redirectPages` writes for hosts that do not read `_redirects` (S3, nginx, GitHub
 * Pages), in Chromium: the demo built with them, served without `_redirects` (as such a host serves it). A
 * campaign link to an old path must reach the new one with its query and #fragment, as a host's 301 would, also
 * under a Content-Security-Policy that allows the page's script by the hash docs/ci.md gives.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REDIRECT_SCRIPT } from '../../src/build/crawl/redirect.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { type RunningServer, startStaticServer } from '../../src/serve/server.js'
import { BASE_URL, buildSite, loadBuildTools } from '../integration/build-helpers.js'
import { hasChromium, launchBrowser, openPage } from './helpers/browser.js'
import { checkHtmlWithNu, hasJava } from './helpers/validators.js'

describe.skipIf(!hasChromium)('redirect pages', () => {
  let dir: string
  let outDir: string
  let server: RunningServer
  let browser: Browser
  let api: DemoApi

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-e2e-redirect-pages-'))
    outDir = join(dir, 'out')
    // kept running: the built pages load some of their files from it, as they would from the CMS
    api = await startDemoApi({ port: 0 })
    const user = { baseUrl: BASE_URL, build: { redirectPages: true } }
    const result = await buildSite({ apiUrl: api.url, outDir, tools: await loadBuildTools(), user })
    expect(result.failures).toEqual([])
    // A host that does not read `_redirects` serves the page at the old path (`site serve` would answer 301).
    await rm(join(outDir, '_redirects'))
    server = await startStaticServer({ dir: outDir, host: '127.0.0.1', port: 0 })
    browser = await launchBrowser()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await api?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it("keep the link's query and #fragment, under a Content-Security-Policy that allows the script by hash", async () => {
    // the hash docs/ci.md gives (test/unit/build/redirect.test.ts checks that it does)
    const hash = `'sha256-${createHash('sha256').update(REDIRECT_SCRIPT).digest('base64')}'`
    const { context, page, problems } = await openPage(browser)
    const served: string[] = []
    // /old-services is a redirect record of the demo (301 to /services); c403 is a content element of /services.
    await page.route('**/old-services*', async (route) => {
      const response = await route.fetch()
      served.push(await response.text())
      await route.fulfill({
        response,
        headers: { ...response.headers(), 'content-security-policy': `script-src ${hash}` },
      })
    })
    await page.goto(`${server.url}/old-services?utm_source=mail#c403`)
    await page.waitForURL((url) => url.pathname === '/services')
    const url = new URL(page.url())
    expect(`${url.pathname}${url.search}${url.hash}`).toBe('/services?utm_source=mail#c403')
    expect(served[0]).toContain('<meta http-equiv="refresh" content="0; url=/services">')
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it.skipIf(!hasJava)('are valid HTML for the Nu HTML checker', async () => {
    const result = await checkHtmlWithNu([join(outDir, 'old-services/index.html')])
    expect(result.errors).toEqual([])
  })
})
