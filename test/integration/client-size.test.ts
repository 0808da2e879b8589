/**
 * Size: the JavaScript a visitor downloads before a page hydrates stays within
 * 80 KB gzip, React included, on every demo page (measured as `npm run bench` does, from
 * the compiled engine in dist/: `npm test` compiles first). Gzip of the same bytes gives
 * the same size: the assertion is deterministic.
 */
import { describe, expect, it } from 'vitest'

interface Size {
  bytes: number
  gzip: number
}
interface ClientSizeReport {
  targetGzip: number
  everyPageJs: Size & { files: Array<{ label: string }> }
  typicalPage: {
    firstLoadJs: Size
    templates: { keepsMain: boolean; layouts: string[]; content: string[]; texts?: string }
  }
  demoPages: { count: number; largest: Size & { page: string } }
  react: Size
}

const BENCH = new URL('../../bench/client-size.mjs', import.meta.url).href

describe('first-load JavaScript', () => {
  it('is at most 80 KB gzip on the typical page and on every demo page; markup-only templates add nothing', async () => {
    const { measureClientSize, FIRST_LOAD_JS_TARGET_BYTES } = (await import(BENCH)) as {
      measureClientSize(): Promise<ClientSizeReport>
      FIRST_LOAD_JS_TARGET_BYTES: number
    }
    const report = await measureClientSize()
    expect(FIRST_LOAD_JS_TARGET_BYTES).toBe(80_000)
    expect(report.typicalPage.firstLoadJs.gzip).toBeLessThanOrEqual(FIRST_LOAD_JS_TARGET_BYTES)
    expect(report.demoPages.count).toBeGreaterThan(0)
    expect(report.demoPages.largest.gzip, report.demoPages.largest.page).toBeLessThanOrEqual(FIRST_LOAD_JS_TARGET_BYTES)
    // The demo's templates need no browser: the home page hydrates without layout or content element code.
    expect(report.typicalPage.templates).toMatchObject({ keepsMain: true, layouts: [], content: [], texts: 'en' })
    // React is most of it; the rest is the engine's client, Header, Footer and one locale's texts.
    expect(report.typicalPage.firstLoadJs.gzip - report.react.gzip).toBeLessThan(11_000)
  }, 60_000)
})
