/**
 * The browser side of editor preview (`?pce=1`, docs/editors.md): edit links,
 * window messages with the CMS (the page inside an iframe of a test parent page),
 * `pce-scroll-to-uid`, the preview options and live reload. Runs against `site preview`
 * (src/preview) and the demo content API, both on loopback.
 */
import { existsSync } from 'node:fs'
import type { Browser, Frame, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PREVIEW_OPTION_IDS, PREVIEW_OPTION_LABELS } from '../../src/client/editor/options.js'
import { resolveConfig } from '../../src/config/load.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { PREVIEW_OPTION_DEFAULTS, PREVIEW_OPTIONS_KEY } from '../../src/shared/client-constants.js'
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

const hasPreview = existsSync(new URL('../../src/preview/server.ts', import.meta.url))
const EDITING = 'You are currently editing this element'
const PREVIEW_OPTION_IDS_LABELS = PREVIEW_OPTION_IDS.map((id) => PREVIEW_OPTION_LABELS[id])

interface Message {
  type: string
  uid?: number
}

describe.skipIf(!hasChromium || !hasPreview)('editor preview in the browser', () => {
  let api: DemoApi
  let preview: { url: string; reload(): Promise<boolean>; close(): Promise<void> }
  let browser: Browser

  beforeAll(async () => {
    const { startPreviewServer } = await import('../../src/preview/server.js')
    api = await startDemoApi({ port: 0 })
    // `inline` is how the server reads the config again on a reload: with the demo API's URL.
    const inline = { root: REPO_ROOT, apiBaseUrl: api.url }
    const config = await resolveConfig(inline)
    ;[preview, browser] = await Promise.all([
      startPreviewServer({ config, inline, host: '127.0.0.1', port: 0, watch: false, log: () => undefined }),
      launchBrowser(),
    ])
  })
  afterAll(async () => {
    await browser?.close()
    await preview?.close()
    await api?.close()
  })

  /** A parent page (the CMS's split view) with the preview in an iframe; it records the messages it receives. */
  async function openFramed(path = '/'): Promise<{
    page: Page
    frame: Frame
    messages: () => Promise<Message[]>
    received(type: string, wanted?: { uid?: number; count?: number }): Promise<void>
    close(): Promise<void>
    errors: string[]
  }> {
    const { context, page, problems } = await openPage(browser)
    await page.setContent(`<!doctype html><title>CMS</title>
      <script>window.__messages = []; addEventListener('message', (event) => window.__messages.push(event.data))</script>
      <iframe id="preview" style="width:1000px;height:600px" src="${preview.url}${path}?pce=1"></iframe>`)
    const frame = await (await page.waitForSelector('#preview')).contentFrame()
    if (!frame) throw new Error('no preview frame')
    await frame.waitForLoadState('load')
    await frame.waitForFunction(
      () => (window as unknown as Record<symbol, unknown>)[Symbol.for('site:page')] !== undefined,
    )
    return {
      page,
      frame,
      messages: () => page.evaluate(() => (window as unknown as { __messages: Message[] }).__messages),
      // Waits until the parent has received `count` (default 1) messages of `type` (with `uid`, when given).
      received: (type, { uid, count = 1 } = {}) =>
        page
          .waitForFunction(
            (want) =>
              (window as unknown as { __messages: Message[] }).__messages.filter(
                (m) => m.type === want.type && (want.uid === undefined || m.uid === want.uid),
              ).length >= want.count,
            { type, uid, count },
          )
          .then(() => undefined),
      close: () => context.close(),
      errors: problems.errors,
    }
  }

  const uidsOf = (frame: Frame): Promise<number[]> =>
    frame.evaluate(() =>
      [...document.querySelectorAll('.pce-target[data-pce-uid]')].map((el) => Number(el.getAttribute('data-pce-uid'))),
    )
  const labelOf = (frame: Frame, uid: number) =>
    frame.evaluate((u) => document.querySelector(`.pce-target[data-pce-uid="${u}"] > .pce-edit-link`)?.textContent, uid)

  it('posts pce-preview-ready once hydrated; an edit click posts pce-open-edit-uid and switches the labels', async () => {
    const view = await openFramed('/')
    await view.received('pce-preview-ready')
    const uids = await uidsOf(view.frame)
    expect(uids.length).toBeGreaterThan(1)
    const [first, second] = uids as [number, number]
    expect(await labelOf(view.frame, first)).toBe('Edit')

    await view.frame.click(`.pce-target[data-pce-uid="${first}"] > .pce-edit-link`)
    await view.received('pce-open-edit-uid', { uid: first })
    expect(await labelOf(view.frame, first)).toBe(EDITING)
    expect(new URL(view.frame.url()).pathname).toBe('/')

    await view.frame.click(`.pce-target[data-pce-uid="${second}"] > .pce-edit-link`)
    await view.received('pce-open-edit-uid', { uid: second })
    expect(await labelOf(view.frame, second)).toBe(EDITING)
    expect(await labelOf(view.frame, first)).toBe('Edit')
    expect((await view.messages()).filter((m) => m.type === 'pce-open-edit-uid')).toEqual([
      { type: 'pce-open-edit-uid', uid: first },
      { type: 'pce-open-edit-uid', uid: second },
    ])
    expect(view.errors).toEqual([])
    await view.close()
  })

  // White on the orange accent was 2.4:1: an editor could hardly read the label of the link they use most.
  it('draws the edit links, the options button and the location indicators legibly (axe: no contrast violation)', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.goto(`${preview.url}/?pce=1`)
    await waitForHydration(page)
    await page.evaluate(() => {
      document.body.setAttribute('data-pce-always-show-links', '1')
      document.body.setAttribute('data-pce-focused-above', '1')
    })
    expect(await seriousAxeViolations(page, '.pce-edit-link, .pce-options-toggle, .pce-indicator-above')).toEqual([])
    // Hovered, too: the templates' `a:hover` colour is more specific than the link's own.
    await page.hover('.pce-edit-link')
    expect(await seriousAxeViolations(page, '.pce-edit-link')).toEqual([])
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('scrolls to, highlights and marks the element a pce-scroll-to-uid message names', async () => {
    const view = await openFramed('/')
    const uids = await uidsOf(view.frame)
    const last = uids[uids.length - 1] as number
    await view.page.evaluate(
      (uid) =>
        (document.getElementById('preview') as HTMLIFrameElement).contentWindow?.postMessage(
          { type: 'pce-scroll-to-uid', uid },
          '*',
        ),
      last,
    )
    await view.frame.waitForSelector(`.pce-target[data-pce-uid="${last}"].pce-target-highlight[data-pce-focused]`)
    await view.frame.waitForFunction((uid) => {
      const rect = (document.querySelector(`.pce-target[data-pce-uid="${uid}"]`) as HTMLElement).getBoundingClientRect()
      return rect.bottom > 0 && rect.top < window.innerHeight
    }, last)
    expect(await labelOf(view.frame, last)).toBe(EDITING)
    expect(await view.frame.locator('.pce-target-highlight').count()).toBe(1)
    expect(view.errors).toEqual([])
    await view.close()
  })

  it('keeps preview mode across a client navigation and posts pce-preview-ready after it', async () => {
    const view = await openFramed('/')
    await markDocument(view.frame)
    const ready = async () => (await view.messages()).filter((m) => m.type === 'pce-preview-ready').length
    await view.received('pce-preview-ready')
    const before = await ready()
    await view.frame.evaluate(() => (document.querySelector('header a[href="/about-us"]') as HTMLElement).click())
    await view.received('pce-preview-ready', { count: before + 1 })
    const url = new URL(view.frame.url())
    expect(url.pathname).toBe('/about-us')
    expect(url.searchParams.get('pce')).toBe('1')
    expect(await isSameDocument(view.frame)).toBe(true)
    expect(await view.frame.locator('.pce-target .pce-edit-link').count()).toBeGreaterThan(0)
    expect(view.errors).toEqual([])
    await view.close()
  })

  it('with "navigate pages in the backend" on (the default), a client navigation posts pce-open-page-uid with the new page uid; off, it does not', async () => {
    const view = await openFramed('/')
    const aboutUid = await (await fetch(`${preview.url}/about-us/_payload.json`))
      .json()
      .then((payload: { page: { id: number } }) => payload.page.id)
    const openPage = async () => (await view.messages()).filter((m) => m.type === 'pce-open-page-uid')
    await view.received('pce-preview-ready')
    expect(await openPage()).toEqual([])
    await view.frame.evaluate(() => (document.querySelector('header a[href="/about-us"]') as HTMLElement).click())
    await view.received('pce-open-page-uid')
    expect(await openPage()).toEqual([{ type: 'pce-open-page-uid', uid: aboutUid }])
    // Switched off in the options panel: navigation stays inside the preview.
    await view.frame.click('.pce-options-toggle')
    await view.frame.uncheck('.pce-options-panel input[name="navigate-pages-in-typo3"]')
    await view.frame.click('.pce-options-toggle')
    const readyBefore = (await view.messages()).filter((m) => m.type === 'pce-preview-ready').length
    await view.frame.evaluate(() => (document.querySelector('header a[href="/"]') as HTMLElement).click())
    await view.received('pce-preview-ready', { count: readyBefore + 1 })
    expect(await openPage()).toHaveLength(1)
    expect(view.errors).toEqual([])
    await view.close()
  })

  it('stores the option defaults in localStorage, shows them on <body> and changes them from the panel', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.goto(`${preview.url}/?pce=1`)
    await waitForHydration(page)
    expect(
      JSON.parse((await page.evaluate((key) => localStorage.getItem(key), PREVIEW_OPTIONS_KEY)) ?? 'null'),
    ).toEqual(PREVIEW_OPTION_DEFAULTS)
    const bodyFlags = () =>
      page.evaluate(() =>
        Object.fromEntries(
          [...document.body.attributes].filter((a) => a.name.startsWith('data-pce-')).map((a) => [a.name, a.value]),
        ),
      )
    expect(await bodyFlags()).toEqual({
      'data-pce-dim-inactive': '1',
      'data-pce-show-outline-on-link-hover': '1',
      'data-pce-show-location-indicators': '1',
      'data-pce-navigate-pages-in-typo3': '1',
    })
    await page.click('.pce-options-toggle')
    await page.check('.pce-options-panel input[name="always-show-links"]')
    await page.uncheck('.pce-options-panel input[name="dim-inactive"]')
    expect(
      JSON.parse((await page.evaluate((key) => localStorage.getItem(key), PREVIEW_OPTIONS_KEY)) ?? 'null'),
    ).toEqual({
      ...PREVIEW_OPTION_DEFAULTS,
      'always-show-links': true,
      'dim-inactive': false,
    })
    expect(await bodyFlags()).toMatchObject({ 'data-pce-always-show-links': '1' })
    expect(await bodyFlags()).not.toHaveProperty('data-pce-dim-inactive')
    // The stored choice applies on the next page.
    await page.reload()
    await waitForHydration(page)
    expect(await bodyFlags()).toHaveProperty('data-pce-always-show-links', '1')
    expect(problems.errors).toEqual([])
    await context.close()
  })

  // The panel came before its button in the document: Tab from the opened panel's button left the page.
  it('works the options panel by keyboard: Enter opens it, Tab reaches its options, Escape closes it', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.goto(`${preview.url}/?pce=1`)
    await waitForHydration(page)
    const focused = () =>
      page.evaluate(() => document.activeElement?.getAttribute('name') ?? document.activeElement?.className)
    await page.focus('.pce-options-toggle')
    await page.keyboard.press('Enter')
    await page.keyboard.press('Tab')
    expect(await focused()).toBe(PREVIEW_OPTION_IDS[0])
    await page.keyboard.press('Space')
    expect(await page.isChecked(`.pce-options-panel input[name="${PREVIEW_OPTION_IDS[0]}"]`)).toBe(
      !PREVIEW_OPTION_DEFAULTS[PREVIEW_OPTION_IDS[0]!],
    )
    await page.keyboard.press('Escape')
    expect(await focused()).toBe('pce-options-toggle')
    expect(await page.isHidden('.pce-options-panel')).toBe(true)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  // The first option ("Dim inactive elements") was once laid out beside the floated legend, outside the panel.
  it('draws every option of the options panel, box and label, inside the panel on desktop and mobile', async () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 360, height: 640 },
    ]) {
      const { context, page, problems } = await openPage(browser)
      await page.setViewportSize(viewport)
      await page.goto(`${preview.url}/?pce=1`)
      await waitForHydration(page)
      await page.click('.pce-options-toggle')
      const layout = await page.evaluate(() => {
        const box = (el: Element) => {
          const { left, top, right, bottom } = el.getBoundingClientRect()
          return { left, top, right, bottom }
        }
        const panel = document.querySelector('.pce-options-panel') as HTMLElement
        return {
          panel: box(panel),
          options: [...panel.querySelectorAll('label')].map((label) => ({
            // biome-ignore lint/performance/useDomNodeTextContent: the label as shown
            text: (label as HTMLElement).innerText.trim(),
            label: box(label),
            checkbox: box(label.querySelector('input') as HTMLInputElement),
          })),
        }
      })
      const size = `${viewport.width}x${viewport.height}`
      expect(layout.options.map((o) => o.text)).toEqual(PREVIEW_OPTION_IDS_LABELS)
      const inside = (r: { left: number; top: number; right: number; bottom: number }) =>
        r.right > r.left &&
        r.bottom > r.top &&
        r.left >= layout.panel.left &&
        r.right <= layout.panel.right &&
        r.top >= layout.panel.top &&
        r.bottom <= layout.panel.bottom
      for (const option of layout.options) {
        expect(inside(option.label), `${size}: label of "${option.text}" ${JSON.stringify(option.label)}`).toBe(true)
        expect(inside(option.checkbox), `${size}: box of "${option.text}" ${JSON.stringify(option.checkbox)}`).toBe(
          true,
        )
      }
      // And the panel itself is on screen.
      expect(layout.panel.left, size).toBeGreaterThanOrEqual(0)
      expect(layout.panel.right, size).toBeLessThanOrEqual(viewport.width)
      expect(layout.panel.top, size).toBeGreaterThanOrEqual(0)
      expect(problems.errors).toEqual([])
      await context.close()
    }
  })

  it('outside a frame, an edit click opens the backend record link in a new tab', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.goto(`${preview.url}/?pce=1`)
    await waitForHydration(page)
    const uid = (await page.evaluate(() =>
      Number(document.querySelector('.pce-target[data-pce-uid]')?.getAttribute('data-pce-uid')),
    )) as number
    const popup = context.waitForEvent('page')
    await page.click(`.pce-target[data-pce-uid="${uid}"] > .pce-edit-link`)
    const opened = await popup
    expect(opened.url()).toBe(`${api.url}/typo3/record/edit?edit%5Btt_content%5D%5B${uid}%5D=edit`)
    expect(
      await page.evaluate(
        (u) => document.querySelector(`.pce-target[data-pce-uid="${u}"] > .pce-edit-link`)?.textContent,
        uid,
      ),
    ).toBe(EDITING)
    expect(problems.errors).toEqual([])
    await context.close()
  })

  it('reloads open tabs when the preview server announces a rebuild', async () => {
    const { context, page, problems } = await openPage(browser)
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/_site/events')
    await page.goto(`${preview.url}/?pce=1`)
    await waitForHydration(page)
    await markDocument(page)
    await stream
    const reloaded = page.waitForEvent('load')
    expect(await preview.reload()).toBe(true)
    await reloaded
    await waitForHydration(page)
    expect(await isSameDocument(page)).toBe(false)
    expect(problems.errors).toEqual([])
    await context.close()
  })
})
