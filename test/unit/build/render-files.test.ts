import { describe, expect, it } from 'vitest'
import { jsonWithMember, renderPageFiles, type RenderContext } from '../../../src/build/render-files.js'
import { renderDocument, serializeBoot, BOOT_ELEMENT_ID } from '../../../src/render/document.js'
import type { BootState, RenderState } from '../../../src/render/types.js'
import type { PageData } from '../../../src/shared/types.js'

const i18n = { default: 'en', locales: ['en', 'pl'] }

const ctx: RenderContext = {
  renderer: {
    preparePage: () => ({ page: null, problems: [] }),
    prepareInitialData: (raw) => ({ data: raw as never, problems: [] }),
    renderPage: (state: RenderState) => ({ appHtml: '<main></main>', head: [], htmlAttrs: { lang: state.locale, dir: 'ltr' }, bodyAttrs: { class: '' }, status: state.status, problems: [] }),
    renderDocument,
  },
  site: { baseUrl: 'https://x.example', i18n, gtmId: undefined, consentHost: undefined, i18nMiddleware: true },
  buildId: 'b1',
  assets: { scripts: ['/_site/assets/entry.js'], styles: [] },
}

const locale = { locale: 'pl', initialData: { navigation: [], i18n: [] }, initialDataUrl: '/_site/data/initial-pl-1.json' }

// Text that must not end the boot script early, and characters JSON keeps but JavaScript source did not (U+2028).
const page = {
  id: 3,
  type: 'Standard',
  meta: { title: 'A </script><script>alert(1)</script> & "quotes" \u2028 ok' },
  content: { colPos0: [{ id: 9, type: 'text', content: { bodytext: '<p>x &amp; y</p>' } }] },
} as unknown as PageData

const bootOf = (html: string): unknown => {
  const match = new RegExp(`<script id="${BOOT_ELEMENT_ID}" type="application/json">(.*?)</script>`).exec(html)
  if (!match) throw new Error('no boot JSON')
  return JSON.parse(match[1]!)
}

describe('jsonWithMember', () => {
  it('adds a member given as JSON text, to empty and filled objects', () => {
    expect(jsonWithMember({ a: 1 }, 'page', '{"id":2}')).toBe('{"a":1,"page":{"id":2}}')
    expect(jsonWithMember({}, 'page', 'null')).toBe('{"page":null}')
    expect(JSON.parse(jsonWithMember({ 'a"b': '}' }, 'c"d', '[1]'))).toEqual({ 'a"b': '}', 'c"d': [1] })
  })
})

describe('renderPageFiles', () => {
  it('serialises the page once: the boot JSON and the payload hold the same page, the boot JSON escaped', () => {
    const { files } = renderPageFiles(ctx, { path: '/pl/o-nas', locale, page })
    const [html, payload] = files.map((f) => f.contents as string)
    expect(html).not.toContain('</script><script>alert(1)')
    expect(html).not.toContain('\u2028')
    const boot = bootOf(html!) as BootState
    const expected: BootState = {
      buildId: 'b1',
      initialDataUrl: '/_site/data/initial-pl-1.json',
      state: { site: ctx.site, mode: 'static', editorPreview: false, debug: false, path: '/pl/o-nas', locale: 'pl', status: 200, page },
    }
    // The same value the general serialiser gives, whatever the key order.
    expect(boot).toEqual(JSON.parse(serializeBoot(expected)))
    expect(JSON.parse(payload!)).toEqual({ buildId: 'b1', locale: 'pl', path: '/pl/o-nas', status: 200, initialDataUrl: '/_site/data/initial-pl-1.json', page })
  })
})
