/**
 * Chromium driven by playwright-core (Debian's, or CHROMIUM_PATH: see chromium-path.ts; never a
 * downloaded browser), kept on loopback: every host name but 127.0.0.1 fails to resolve.
 */
import { type Browser, type BrowserContext, chromium, type Frame, type Page } from 'playwright-core'
import { CHROMIUM_PATH } from './chromium-path.js'

export { CHROMIUM_PATH, hasChromium } from './chromium-path.js'

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  })
}

/** Console errors, uncaught page errors and React hydration warnings of a page. */
export interface PageProblems {
  errors: string[]
}

const HYDRATION_RE = /hydrat|did not match|server rendered|Minified React error #(418|419|423|425)/i

function watchProblems(page: Page): PageProblems {
  const problems: PageProblems = { errors: [] }
  page.on('console', (message) => {
    const text = message.text()
    if (message.type() === 'error' || (message.type() === 'warning' && HYDRATION_RE.test(text))) {
      problems.errors.push(`${message.type()}: ${text}`)
    }
  })
  page.on('pageerror', (error) => problems.errors.push(`pageerror: ${error.message}`))
  return problems
}

/** A fresh context (own storage, own service workers) and page. */
export async function openPage(
  browser: Browser,
  options: { serviceWorkers?: 'allow' | 'block' } = {},
): Promise<{ context: BrowserContext; page: Page; problems: PageProblems }> {
  const context = await browser.newContext({ serviceWorkers: options.serviceWorkers ?? 'block' })
  const page = await context.newPage()
  return { context, page, problems: watchProblems(page) }
}

/** Marks the current document; `isSameDocument` is false after a full page load. */
export async function markDocument(page: Page | Frame): Promise<void> {
  await page.evaluate(() => {
    ;(window as unknown as { __e2eMark?: number }).__e2eMark = 1
  })
}

export const isSameDocument = (page: Page | Frame): Promise<boolean> =>
  page.evaluate(() => (window as unknown as { __e2eMark?: number }).__e2eMark === 1)

/**
 * The visitor's first action on a page (the mouse moves over it, or `act`), repeated until the page's client
 * loader has started loading (it announces the client's modulepreloads then). A page that needs no code before
 * the visitor acts loads its client at the first action after its first paint; one that does, or a page without
 * a loader, needs none.
 */
export async function actOn(page: Page, act?: () => Promise<void>): Promise<void> {
  const loading = () =>
    page.evaluate(
      () => !document.getElementById('__SITE_LOADER__') || document.querySelector('link[rel="modulepreload"]') !== null,
    )
  for (let i = 0; !(await loading()); i++) {
    if (i === 200) throw new Error('the client did not start loading after 200 actions')
    if (act) await act()
    else await page.mouse.move(4 + (i % 2) * 4, 4 + (i % 2) * 4)
    await page.waitForTimeout(25)
  }
}

/**
 * Waits until the client has hydrated the page (it stores the page under `Symbol.for('site:page')`, see
 * src/client/events.ts), after the visitor's first action (`actOn`; most pages load their client only then)
 * unless `act` is false.
 */
export async function waitForHydration(page: Page, options: { act?: boolean } = {}): Promise<void> {
  if (options.act !== false) await actOn(page)
  await page.waitForFunction(
    () => (window as unknown as Record<symbol, unknown>)[Symbol.for('site:page')] !== undefined,
  )
}

/**
 * Records when the client announces that it hydrated the page (`site:page`, kind `hydrate`), as
 * `performance.now()` time. Call before `goto`; read with `resourcesBeforeHydration`.
 */
export async function recordHydrationTime(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.addEventListener('site:page', (event) => {
      const w = window as unknown as { __hydratedAt?: number }
      if ((event as CustomEvent<{ kind: string }>).detail.kind === 'hydrate') w.__hydratedAt ??= performance.now()
    })
  })
}

/**
 * Paths of the scripts under `/_site/assets/` that the page started to load before it hydrated.
 * What loads after (the navigation chunk on idle, templates of hovered links) depends on how
 * long the test takes to ask, which on a loaded machine is anything.
 */
export function scriptsBeforeHydration(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const hydratedAt = (window as unknown as { __hydratedAt?: number }).__hydratedAt
    if (hydratedAt === undefined) throw new Error('no hydration recorded (recordHydrationTime before goto)')
    return performance
      .getEntriesByType('resource')
      .filter(
        (entry) => entry.startTime < hydratedAt && /^\/_site\/assets\/[^/]+\.js$/.test(new URL(entry.name).pathname),
      )
      .map((entry) => new URL(entry.name).pathname)
  })
}
