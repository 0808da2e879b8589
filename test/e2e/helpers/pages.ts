/** Small page helpers of the browser tests. */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { toHtmlFile } from '../../../src/shared/url.js'

export interface PageView {
  event: string
  page_title: string
  page_path: string
}

export const pageViews = (page: Page): Promise<PageView[]> =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: PageView[] }).dataLayer ?? []).filter((entry) => entry.event === 'page_view'),
  )

/** Waits until the page has pushed `count` page views and the last one is for `path`. */
export async function waitForPageView(page: Page, path: string, count: number): Promise<void> {
  await page.waitForFunction(
    ([wanted, n]) => {
      const views = (
        (window as unknown as { dataLayer?: Array<{ event: string; page_path: string }> }).dataLayer ?? []
      ).filter((e) => e.event === 'page_view')
      return views.length >= (n as number) && views[views.length - 1]?.page_path === wanted
    },
    [path, count] as const,
  )
}

/** The `<title>` the build wrote for a page path. */
export async function builtTitle(outDir: string, path: string): Promise<string> {
  const html = await readFile(join(outDir, toHtmlFile(path)), 'utf8')
  const match = /<title[^>]*>([^<]*)<\/title>/.exec(html)
  return (match?.[1] ?? '')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
}

/** Text of an element as the browser shows it (innerText), or '' when missing. */
export const textOf = (page: Page, selector: string): Promise<string> =>
  // biome-ignore lint/performance/useDomNodeTextContent: the text as shown (CSS applied), as a visitor reads it
  page.evaluate((sel) => (document.querySelector(sel) as HTMLElement | null)?.innerText ?? '', selector)
