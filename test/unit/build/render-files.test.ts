import { describe, expect, it } from 'vitest'
import {
  encodeDocument,
  encodeText,
  type RenderContext,
  renderPageFiles,
} from '../../../src/build/render-threads/render-files.js'
import { preloadUrls } from '../../../src/hydration/plan.js'
import { createDocumentShell, documentText, renderDocumentParts, serializeBoot } from '../../../src/render/document.js'
import { jsonWithMember, jsonWithMemberParts } from '../../../src/render/payload.js'
import type { BootState, RenderState, TemplateChunks } from '../../../src/shared/contract.js'
import { BOOT_ELEMENT_ID } from '../../../src/shared/layout.js'
import type { PageData } from '../../../src/shared/types.js'
import { clientModulesOf } from '../../shared/client-modules.js'
import { textOf } from '../../shared/file-text.js'

const i18n = { default: 'en', locales: ['en', 'pl'] }

const ctx: RenderContext = {
  renderer: {
    preparePage: () => ({ page: null, problems: [] }),
    prepareInitialData: (raw) => ({ data: raw as never, problems: [] }),
    renderPage: (state: RenderState) => ({
      appHtml: '<main></main>',
      head: [],
      htmlAttrs: { lang: state.locale, dir: 'ltr' },
      bodyAttrs: { class: '' },
      status: state.status,
      problems: [],
    }),
    renderDocumentParts,
  },
  site: { baseUrl: 'https://x.example', i18n, gtmId: undefined, consentHost: undefined, i18nMiddleware: true },
  clientVersion: 'c1',
  assets: { scripts: ['/_site/assets/entry.js'], styles: [] },
  shell: { styles: [] },
}

const locale = {
  locale: 'pl',
  initialData: { navigation: [], i18n: [] },
  initialDataUrl: '/_site/data/initial-pl-1.json',
}

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

  it('as parts, keeps the value the string it is: the parts make the same text', () => {
    const pageJson = '{"id":2,"title":"<b>"}'
    const parts = jsonWithMemberParts({ v: 1 }, 'state', jsonWithMemberParts({}, 'page', [pageJson]))
    expect(parts).toEqual(['{"v":1,"state":', '{"page":', pageJson, '}', '}'])
    expect(parts.join('')).toBe(jsonWithMember({ v: 1 }, 'state', jsonWithMember({}, 'page', pageJson)))
  })
})

describe('encodeDocument', () => {
  it('writes the UTF-8 bytes of the parts joined, shared parts from their one encoding', () => {
    const { styles } = createDocumentShell({ scripts: [], styles: [], inlineStyles: ['a{content:"ż"}'.repeat(200)] })
    const style = styles[0]!
    const parts = ['<p>zażółć ✓ \u{1F600}</p>', '\n', style, '\n', '<b>ß</b>', '\n']
    const bytes = encodeDocument(parts)
    expect(textOf(bytes)).toBe(documentText(parts))
    expect(documentText(parts)).toContain(`<style>${'a{content:"ż"}'.repeat(200)}</style>`)
    // a buffer of its own, which a render worker can transfer
    expect(bytes.byteOffset).toBe(0)
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength)
    // a shared part is copied from its bytes, not encoded again from its text
    const marked = { text: style.text, shared: new TextEncoder().encode('<style>from the bytes</style>') }
    expect(textOf(encodeDocument([marked]))).toBe('<style>from the bytes</style>')
    expect(encodeDocument([]).byteLength).toBe(0)
  })

  it('writes into the room it is given, for the most bytes the parts can take, and returns what it wrote', () => {
    const parts = ['<p>ż\u{1F600}</p>', '\n', '<i>\ud800</i>']
    const expected = Buffer.from(parts.join(''))
    const asked: number[] = []
    const room = (maxBytes: number, write: (room: Uint8Array) => number) => {
      asked.push(maxBytes)
      const into = new Uint8Array(maxBytes)
      return into.subarray(0, write(into))
    }
    expect(Buffer.from(encodeDocument(parts, room)).equals(expected)).toBe(true)
    // 3 bytes a UTF-16 unit at most: a surrogate pair takes 4, a lone surrogate 3 (U+FFFD)
    expect(asked).toEqual([parts.join('').length * 3])
    expect(asked[0]).toBeGreaterThanOrEqual(expected.byteLength)
    const textParts = ['{"title":', '"Zażółć gęślą jaźń"', '}']
    const text = textParts.join('')
    const bytes = encodeText(textParts)
    expect(Buffer.from(bytes).toString()).toBe(text)
    // a buffer of its own, as long as the bytes
    expect(bytes.buffer.byteLength).toBe(Buffer.byteLength(text))
  })
})

describe('renderPageFiles', () => {
  it('serialises the page once: the boot JSON and the payload hold the same page, the boot JSON escaped', () => {
    const { files } = renderPageFiles(ctx, { path: '/pl/o-nas', locale, page })
    const [html, payload] = files.map((f) => textOf(f.contents))
    expect(html).not.toContain('</script><script>alert(1)')
    expect(html).not.toContain('\u2028')
    const boot = bootOf(html!) as BootState
    const expected: BootState = {
      clientVersion: 'c1',
      initialDataUrl: '/_site/data/initial-pl-1.json',
      state: {
        site: ctx.site,
        mode: 'static',
        editorPreview: false,
        debug: false,
        path: '/pl/o-nas',
        locale: 'pl',
        status: 200,
        page,
      },
      // No template chunks (no word of what is marked 'use client'): the whole main hydrates.
      hydration: { kind: 'full' },
    }
    // The same value the general serialiser gives, whatever the key order.
    expect(boot).toEqual(JSON.parse(serializeBoot(expected)))
    expect(JSON.parse(payload!)).toEqual({
      clientVersion: 'c1',
      locale: 'pl',
      path: '/pl/o-nas',
      status: 200,
      initialDataUrl: '/_site/data/initial-pl-1.json',
      page,
    })
  })
})

describe('the boot hydration and the modulepreloads of a page', () => {
  const chunks: TemplateChunks = {
    layouts: { Default: ['/_site/l-default.js'] },
    content: {
      Default: ['/_site/c-default.js'],
      Text: ['/_site/c-text.js', '/_site/shared.js'],
      Image: ['/_site/c-image.js'],
    },
    texts: { en: ['/_site/t-en.js'], pl: ['/_site/t-pl.js'] },
    main: ['/_site/main.js'],
    islands: ['/_site/islands.js', '/_site/shared.js'],
  }
  const element = (id: number, type: string) => ({ id, type, content: {} })
  const twoTexts = {
    ...page,
    content: { colPos0: [element(1, 'image'), element(2, 'text')], colPos1: [element(3, 'text')] },
  } as unknown as PageData
  const render = (client: string[], target: PageData = twoTexts) => {
    const withChunks: RenderContext = {
      ...ctx,
      assets: { ...ctx.assets, modulePreloads: ['/_site/chunk-0.js'], templateChunks: { ...chunks, client } },
    }
    const [html] = renderPageFiles(withChunks, { path: '/pl/o-nas', locale, page: target }).files.map((f) =>
      textOf(f.contents),
    )
    const boot = bootOf(html!) as BootState
    const { preloads } = clientModulesOf(html!)
    // The preloads follow the boot's answer: the two cannot drift apart.
    expect(preloads).toEqual(preloadUrls(withChunks.assets, { ...boot.state, page: target }, boot.hydration))
    expect(textOf(renderPageFiles(withChunks, { path: '/pl/o-nas', locale, page: target }).files[0]!.contents)).toBe(
      html,
    )
    return { hydration: boot.hydration, preloads }
  }

  it('kept: no template marked on the page, the texts only', () => {
    expect(render([])).toEqual({ hydration: { kind: 'kept' }, preloads: ['/_site/chunk-0.js', '/_site/t-pl.js'] })
    expect(render(['content/Table'])).toEqual({
      hydration: { kind: 'kept' },
      preloads: ['/_site/chunk-0.js', '/_site/t-pl.js'],
    })
  })

  it('islands: the marked elements by uid, index and template; their chunks and the islands code, not the main', () => {
    expect(render(['content/Text'])).toEqual({
      hydration: {
        kind: 'islands',
        islands: [
          { uid: 2, index: 1, template: 'Text' },
          { uid: 3, index: 0, template: 'Text' },
        ],
      },
      preloads: ['/_site/chunk-0.js', '/_site/t-pl.js', '/_site/islands.js', '/_site/shared.js', '/_site/c-text.js'],
    })
    // The element data stays in state.page only.
    expect(JSON.stringify(render(['content/Text']).hydration)).not.toContain('content')
  })

  it('full: a marked layout, or a marked element that cannot be an island (its uid twice on the page)', () => {
    const full = [
      '/_site/chunk-0.js',
      '/_site/main.js',
      '/_site/l-default.js',
      '/_site/c-image.js',
      '/_site/c-text.js',
      '/_site/shared.js',
      '/_site/t-pl.js',
    ]
    expect(render(['layouts/Default'])).toEqual({ hydration: { kind: 'full' }, preloads: full })
    const twice = {
      ...page,
      content: { colPos0: [element(1, 'image'), element(2, 'text')], colPos1: [element(2, 'text')] },
    } as unknown as PageData
    expect(render(['content/Text'], twice)).toEqual({ hydration: { kind: 'full' }, preloads: full })
  })
})
