/**
 * Issue 7: axe-core in Chromium over every demo page in the three locales (and their
 * 404 pages): no serious or critical violation.
 */

import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Browser } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { hasChromium, openPage, waitForHydration } from './helpers/browser.js'
import { type BuiltSite, useSiteAndBrowser } from './helpers/site.js'

const axeSource = () => readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: Array<{ target: string[] }>
}

describe.skipIf(!hasChromium)('accessibility of the demo site (issue 7)', () => {
  let site: BuiltSite
  let browser: Browser
  let axe: string

  useSiteAndBrowser((s, b) => {
    site = s
    browser = b
  })
  beforeAll(async () => {
    axe = await axeSource()
  })

  it('has no serious or critical axe violation on any page, in en, pl and de', async () => {
    const paths = [...site.result.pages.paths, '/no-such-page', '/pl/nie-ma-takiej-strony', '/de/keine-solche-seite']
    for (const locale of ['pl', 'de']) expect(paths.filter((p) => p.startsWith(`/${locale}`)).length).toBeGreaterThan(5)
    const { context, page } = await openPage(browser)
    const found: string[] = []
    for (const path of paths) {
      await page.goto(`${site.url}${path}`)
      await waitForHydration(page)
      await page.addScriptTag({ content: axe })
      const violations = (await page.evaluate(async () => {
        const result = await (
          window as unknown as {
            axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> }
          }
        ).axe.run(document, { resultTypes: ['violations'] })
        return result.violations
      })) as AxeViolation[]
      for (const v of violations)
        if (v.impact === 'serious' || v.impact === 'critical')
          found.push(
            `${path}: [${v.impact}] ${v.id} (${v.help}) at ${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 3)
              .join(', ')}`,
          )
    }
    expect(found).toEqual([])
    await context.close()
  })
})
