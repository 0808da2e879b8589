/**
 * Preview shows what went wrong, in Chromium, through the real CLI (`site preview` on a temp copy of the
 * project): with the API down the error page shows the hint docs/editors.md promises (on the screen, not
 * only in the page's JSON); a template that stops compiling shows an overlay with file, line and code frame
 * without a reload, also in a tab opened meanwhile, and a fix takes it away by reloading the tab.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { closedPort } from '../integration/ports.js'
import { startCli } from '../integration/preview-helpers.js'
import {
  hasChromium,
  isSameDocument,
  launchBrowser,
  markDocument,
  openPage,
  waitForHydration,
} from './helpers/browser.js'
import { REPO_ROOT } from './helpers/site.js'
import { seriousAxeViolations } from './helpers/validators.js'

const TEXT_TEMPLATE = 'templates/content/Text.tsx'
const BROKEN = (source: string) => source.replace('<RichText html={props.bodytext}', '<RichText html={props.bodytext')

type Preview = ReturnType<typeof startCli>

describe.skipIf(!hasChromium)('preview shows what went wrong', () => {
  let api: DemoApi
  let project: string
  let browser: Browser
  const previews: Preview[] = []

  /** `site preview` in the project copy; resolves to its URL. */
  async function startPreview(apiUrl: string, port = 0, ...more: string[]): Promise<string> {
    const preview = startCli(
      ['preview', '--api', apiUrl, '--port', String(port), ...more],
      project,
      /Preview: (http:\/\/[^/\s]+)\//,
    )
    previews.push(preview)
    const [, url] = await preview.started
    return url as string
  }

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'site-preview-problems-'))
    for (const dir of ['templates', 'config', 'public'])
      await cp(join(REPO_ROOT, dir), join(project, dir), { recursive: true })
    ;[api, browser] = await Promise.all([startDemoApi({ port: 0 }), launchBrowser()])
  })

  afterAll(async () => {
    for (const preview of previews) {
      preview.child.kill('SIGTERM')
      await preview.exited
    }
    await browser?.close()
    await api?.close()
    if (project) await rm(project, { recursive: true, force: true })
  })

  it('with the API down, the error page shows the hint on screen, before and after hydration', async () => {
    const url = await startPreview(`http://127.0.0.1:${await closedPort()}`)
    // As an editor's Chrome says it is: headless Chromium's own user agent is a bot's, which gets no error page.
    const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`
    const context = await browser.newContext({ userAgent, serviceWorkers: 'block' })
    const page = await context.newPage()
    const response = await page.goto(`${url}/about-us`)
    expect(response?.status()).toBe(500)
    const expected =
      'The content API did not answer (ECONNREFUSED). Check api.baseUrl in the site configuration (or --api) and that the API is running'
    const hint = page.locator('.error-page__hint').getByText(expected)
    expect(await hint.isVisible()).toBe(true)
    await waitForHydration(page)
    expect(await hint.isVisible()).toBe(true)
    // The hint is the engine's English, also on a Polish page: a screen reader must read it as English.
    await page.goto(`${url}/pl/o-nas`)
    const langOf = () => page.locator('.error-page__hint').evaluate((el) => el.closest('[lang]')?.getAttribute('lang'))
    expect(await langOf()).toBe('en')
    await waitForHydration(page)
    expect(await langOf()).toBe('en')
    await context.close()
  }, 60_000)

  it('with --debug, the raw error on a narrow screen scrolls by keyboard too (axe)', async () => {
    const url = await startPreview(`http://127.0.0.1:${await closedPort()}`, 0, '--debug')
    const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`
    const context = await browser.newContext({
      userAgent,
      serviceWorkers: 'block',
      viewport: { width: 360, height: 700 },
    })
    const page = await context.newPage()
    await page.goto(`${url}/about-us?debug`)
    await page.locator('.error-page__debug').waitFor()
    expect(await seriousAxeViolations(page)).toEqual([])
    await context.close()
  }, 60_000)

  it('a template that stops compiling: overlay with file, line and code, no reload; a fix reloads without it', async () => {
    const url = await startPreview(api.url)
    const file = join(project, TEXT_TEMPLATE)
    const good = await readFile(file, 'utf8')
    const { context, page } = await openPage(browser)
    await page.goto(`${url}/`)
    await waitForHydration(page)
    await markDocument(page)
    const overlay = (p: Page) => p.locator('#site-error-overlay')

    await writeFile(file, BROKEN(good))
    await overlay(page).locator('.where').waitFor({ state: 'visible', timeout: 30_000 })
    expect(await overlay(page).locator('.title').textContent()).toBe('Template failed to compile')
    expect(await overlay(page).locator('.where').textContent()).toMatch(/^templates\/content\/Text\.tsx:8:\d+$/)
    const frame = await overlay(page).locator('.frame').textContent()
    expect(frame).toContain('>  8 |       <RichText html={props.bodytext className="ce-bodytext" />\n     |')
    expect(frame).toMatch(/\n {5}\| +\^\n/)
    expect(frame).toContain('   7 |       <Heading {...props} />')
    expect(await isSameDocument(page)).toBe(true)
    // The dialog takes the focus (Tab would otherwise walk the links the backdrop hides), and in the CMS's
    // narrow split pane the code frame scrolls sideways: a keyboard reaches it.
    expect(await page.evaluate(() => document.activeElement?.shadowRoot?.activeElement?.className)).toBe('panel')
    await page.setViewportSize({ width: 400, height: 700 })
    expect(await seriousAxeViolations(page)).toEqual([])

    // A tab opened while it is broken shows it too (the last good version underneath).
    const other = await context.newPage()
    await other.goto(`${url}/about-us`)
    await overlay(other).locator('.where').waitFor({ state: 'visible', timeout: 30_000 })

    // In the CMS, preview is a frame beside the form an editor types in: the dialog the frame shows as it
    // (re)loads leaves the editor's focus where it is.
    const cms = await context.newPage()
    await cms.setContent('<input id="field"><iframe id="preview" title="Preview"></iframe>')
    await cms.focus('#field')
    await cms.locator('#preview').evaluate((frame: HTMLIFrameElement, src) => {
      frame.src = src
    }, `${url}/about-us`)
    await cms
      .frameLocator('#preview')
      .locator('#site-error-overlay .where')
      .waitFor({ state: 'visible', timeout: 30_000 })
    await cms.keyboard.type('typed')
    expect(await cms.inputValue('#field')).toBe('typed')

    const reloaded = page.waitForEvent('load', { timeout: 30_000 })
    await writeFile(file, good)
    await reloaded
    await waitForHydration(page)
    expect(await isSameDocument(page)).toBe(false)
    expect(await overlay(page).count()).toBe(0)
    await context.close()
  }, 120_000)

  it('more tabs than the browser opens connections to one host: each loads, and a change reloads them all', async () => {
    const url = await startPreview(api.url)
    const file = join(project, TEXT_TEMPLATE)
    const good = await readFile(file, 'utf8')
    const { context } = await openPage(browser)
    // Chromium opens at most 6 connections to one host over HTTP/1.1: an event stream held by each tab would leave
    // the seventh tab waiting for a free one, its page never loading
    const tabs: Page[] = []
    for (let i = 0; i < 8; i++) {
      const tab = await context.newPage()
      await tab.goto(`${url}/${['', 'pl/', 'about-us', 'de/'][i % 4]}`, { timeout: 10_000 })
      await markDocument(tab)
      tabs.push(tab)
    }
    const reloaded = tabs.map((tab) => tab.waitForEvent('load', { timeout: 30_000 }))
    await writeFile(file, good.replace('ce ce-text', 'ce ce-text changed'))
    await Promise.all(reloaded)
    for (const tab of tabs) expect(await isSameDocument(tab)).toBe(false)
    await writeFile(file, good)
    await context.close()
  }, 120_000)

  it('a preview started again on its port: a tab opened then loads once, not for ever', async () => {
    const port = await closedPort()
    const url = await startPreview(api.url, port)
    const file = join(project, TEXT_TEMPLATE)
    const good = await readFile(file, 'utf8')
    const { context, page: holder } = await openPage(browser)
    await holder.goto(`${url}/`)
    await waitForHydration(holder)
    // a reload: the holder's stream is told the version pages are at
    const reloaded = holder.waitForEvent('load', { timeout: 30_000 })
    await writeFile(file, good.replace('ce ce-text', 'ce ce-text changed'))
    await reloaded
    await waitForHydration(holder)
    await writeFile(file, good)
    // the developer stops preview and starts it again; the holder's stream connects to the new one by itself
    const first = previews.at(-1)!
    first.child.kill('SIGTERM')
    await first.exited
    await startPreview(api.url, port)
    await new Promise((done) => setTimeout(done, 3_000))
    const tab = await context.newPage()
    let loads = 0
    tab.on('load', () => loads++)
    await tab.goto(`${url}/about-us`)
    await new Promise((done) => setTimeout(done, 3_000))
    expect(loads).toBe(1)
    await context.close()
  }, 120_000)
})
