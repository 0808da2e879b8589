import { describe, expect, it } from 'vitest'
import { type JobContext, runNotFoundJob, runPageJob } from '../../../src/build/render-threads/render-jobs.js'
import type { PageRenderer } from '../../../src/render/renderer.js'
import type { RenderState } from '../../../src/shared/contract.js'
import type { PageData } from '../../../src/shared/types.js'
import { textOf } from '../../shared/file-text.js'

const i18n = { default: 'en', locales: ['en', 'pl'] }

/** Raw page data with one text element linking to `links`. */
const rawPage = (id: number, title: string, links: string[] = []) => ({
  id,
  meta: { title },
  content: {
    colPos0: [{ id: 1, type: 'text', content: { bodytext: links.map((l) => `<a href="${l}">x</a>`).join('') } }],
  },
})

/**
 * A render core stand-in: its "sanitiser" drops javascript: links and reports them, as the real one does; it drops
 * `zzz`, as the real one drops what is nested too deep.
 */
const stub: PageRenderer = {
  preparePage: (raw) => {
    const { zzz: _deep, ...r } = raw as ReturnType<typeof rawPage> & { zzz?: unknown }
    if (typeof r?.id !== 'number')
      return { page: null, problems: [{ kind: 'INVALID_DATA', message: 'page data has no numeric id' }] }
    const element = r.content.colPos0[0]!
    const dropped = [...element.content.bodytext.matchAll(/ href="(javascript:[^"]*)"/g)].map((m) => ({
      kind: 'UNSAFE_LINK' as const,
      message: `bodytext: unsafe link "${m[1]}" removed`,
      elementUid: element.id,
    }))
    const bodytext = element.content.bodytext.replace(/ href="javascript:[^"]*"/g, '')
    const page = { ...r, appearance: {}, content: { colPos0: [{ ...element, content: { bodytext } }] } }
    return {
      page: page as unknown as PageData,
      problems: [{ kind: 'INVALID_DATA', message: 'meta.description: not a string, dropped' }, ...dropped],
    }
  },
  prepareInitialData: (raw) => ({ data: raw as never, problems: [] }),
  renderPage: (state: RenderState) => {
    if (state.page?.meta.title === 'explode') throw new Error('boom')
    return {
      appHtml: `<main>${state.status} ${state.path}</main>`,
      head: [],
      htmlAttrs: { lang: state.locale, dir: 'ltr' },
      bodyAttrs: { class: '' },
      status: state.status,
      problems: [{ kind: 'ELEMENT_SKIPPED', message: 'unknown type x skipped', elementUid: 1 }],
    }
  },
  renderDocumentParts: ({ result, boot }) => [
    '<html>',
    result.appHtml,
    `<script>${JSON.stringify(boot)}</script></html>`,
  ],
}

const ctx: JobContext = {
  renderer: stub,
  site: { baseUrl: 'https://x.example', i18n, gtmId: undefined, consentHost: undefined, i18nMiddleware: true },
  clientVersion: 'c1',
  assets: { scripts: [], styles: [] },
  shell: { styles: [] },
  locales: new Map([
    [
      'en',
      { locale: 'en', initialData: { navigation: [], i18n: [] }, initialDataUrl: '/_site/data/initial-en-1.json' },
    ],
    [
      'pl',
      { locale: 'pl', initialData: { navigation: [], i18n: [] }, initialDataUrl: '/_site/data/initial-pl-1.json' },
    ],
  ]),
}

/** A 2xx API answer with `body` as its JSON text (a BOM, as some servers send, is dropped). */
const answer = (body: unknown, text = JSON.stringify(body)) => ({
  url: 'http://api.test/x',
  status: 200,
  body: new TextEncoder().encode(`\uFEFF${text}`),
  headers: { 'content-type': 'application/json' },
})

describe('runPageJob', () => {
  it('renders index.html and _payload.json, and returns the links and the page fact', () => {
    const raw = rawPage(7, 'O nas', ['/pl/kontakt/', 'https://x.example/pl/x', 'javascript:alert(1)', '/../up'])
    const output = runPageJob(ctx, { path: '/pl/o-nas', locale: 'pl', answer: answer(raw) })
    if (output.type !== 'page') throw new Error(output.type)
    expect(output.files.map((f) => f.path)).toEqual(['pl/o-nas/index.html', 'pl/o-nas/_payload.json'])
    expect(JSON.parse(textOf(output.files[1]!.contents))).toMatchObject({
      clientVersion: 'c1',
      locale: 'pl',
      path: '/pl/o-nas',
      status: 200,
      initialDataUrl: '/_site/data/initial-pl-1.json',
    })
    const boot = JSON.parse(/<script>(.*)<\/script>/.exec(textOf(output.files[0]!.contents))![1]!)
    expect(boot).toMatchObject({
      clientVersion: 'c1',
      initialDataUrl: '/_site/data/initial-pl-1.json',
      state: { mode: 'static', editorPreview: false, debug: false },
    })
    expect(boot.state.initialData).toBeUndefined()
    // For CI diagnostics, each link and problem says which CMS page and content element it came from.
    const source = { from: '/pl/o-nas', pageUid: 7, elementUid: 1 }
    expect(output.links).toEqual({
      from: '/pl/o-nas',
      pageUid: 7,
      nav: [],
      content: ['/pl/kontakt', '/pl/x'],
      elementUids: [1, 1],
    })
    expect(output.skipped).toEqual([
      { kind: 'INVALID_DATA', item: '/pl/o-nas', reason: 'meta.description: not a string, dropped', pageUid: 7 },
      {
        kind: 'UNSAFE_LINK',
        item: '/pl/o-nas',
        reason: 'bodytext: unsafe link "javascript:alert(1)" removed',
        pageUid: 7,
        elementUid: 1,
      },
      { kind: 'ELEMENT_SKIPPED', item: '/pl/o-nas', reason: 'unknown type x skipped', pageUid: 7, elementUid: 1 },
      { kind: 'UNSAFE_LINK', item: '/../up', reason: 'dot segment', ...source },
    ])
    expect(output.uid).toBe(7)
    expect(output.fact).toEqual({ path: '/pl/o-nas', locale: 'pl', noIndex: false, alternates: [] })
  })

  it('fails an answer that is not a page, with the reason', () => {
    expect(runPageJob(ctx, { path: '/x', locale: 'en', answer: answer({ error: 'nope' }) })).toMatchObject({
      type: 'failed',
      kind: 'API_BAD_RESPONSE',
      status: 502,
      reason: 'the API answer is not a page: page data has no numeric id',
    })
  })

  it('fails an answer that is no JSON object as an API error, naming the URL and content type', () => {
    expect(
      runPageJob(ctx, {
        path: '/x',
        locale: 'en',
        answer: { ...answer(null, '<html>oops</html>'), headers: { 'content-type': 'text/html' } },
      }),
    ).toMatchObject({
      type: 'failed',
      kind: 'API_BAD_RESPONSE',
      status: 502,
      reason: 'expected a JSON object, got unparsable text/html (GET http://api.test/x)',
    })
    expect(runPageJob(ctx, { path: '/x', locale: 'en', answer: answer([1, 2]) })).toMatchObject({
      type: 'failed',
      status: 502,
      reason: 'expected a JSON object, got another JSON value (GET http://api.test/x)',
    })
    // a compressing proxy's answer: the body is read as sent, so the coding is what to name
    expect(
      runPageJob(ctx, {
        path: '/x',
        locale: 'en',
        answer: {
          ...answer(null, '\u001f\u008b\b\u0000'),
          headers: { 'content-type': 'application/json', 'content-encoding': 'GZIP' },
        },
      }),
    ).toMatchObject({
      type: 'failed',
      status: 502,
      reason:
        'expected a JSON object, got unparsable application/json with Content-Encoding gzip, which is not decoded (GET http://api.test/x)',
    })
    // an answer with no body (a 204, a PHP error with display_errors off) has nothing to parse: say so
    expect(
      runPageJob(ctx, { path: '/x', locale: 'en', answer: { ...answer(null, ' \n'), status: 204, headers: {} } }),
    ).toMatchObject({
      type: 'failed',
      status: 502,
      reason: 'expected a JSON object, got an empty body (GET http://api.test/x)',
    })
    // a JSON string is JSON all the same: not "unparsable", which sends the reader after the encoding
    expect(runPageJob(ctx, { path: '/x', locale: 'en', answer: answer('maintenance') })).toMatchObject({
      type: 'failed',
      status: 502,
      reason: 'expected a JSON object, got another JSON value (GET http://api.test/x)',
    })
  })

  it('hands a redirect record back as a redirect, with a status _redirects takes (301 otherwise)', () => {
    const statusOf = (statusCode: unknown) =>
      runPageJob(ctx, { path: '/old', locale: 'en', answer: answer({ redirectUrl: '/new', statusCode }) })
    for (const code of [301, 302, 303, 307, 308])
      expect(statusOf(code)).toMatchObject({ type: 'redirect', redirectUrl: '/new', statusCode: code })
    for (const code of [200, 300, 304, 305, 306, 399, undefined])
      expect(statusOf(code), String(code)).toMatchObject({ type: 'redirect', statusCode: 301 })
  })

  it('renders a page nested some thousand levels deep, on every Node.js release (preparation drops the depth)', () => {
    const depth = 20_000
    const text = JSON.stringify(rawPage(1, 'Deep')).replace(
      '{',
      `{"zzz":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)},`,
    )
    expect(runPageJob(ctx, { path: '/x', locale: 'en', answer: answer(undefined, text) })).toMatchObject({
      type: 'page',
      linkDigest: expect.stringMatching(/^[0-9a-f]{16}$/),
    })
  })

  it('turns a render error into a failure of that page', () => {
    expect(runPageJob(ctx, { path: '/x', locale: 'en', answer: answer(rawPage(1, 'explode')) })).toMatchObject({
      type: 'failed',
      kind: 'RENDER_FAILED',
      pageUid: 1,
      status: 500,
      reason: 'boom',
    })
  })
})

describe('runNotFoundJob', () => {
  it('renders the locale 404 page with status 404, from the API page when there is one', () => {
    const plain = runNotFoundJob(ctx, { locale: 'pl' })
    expect(plain.file.path).toBe('pl/404.html')
    expect(textOf(plain.file.contents)).toContain('<main>404 /pl/404</main>')
    expect(textOf(plain.file.contents)).toContain('"error":{"status":404,"message":"Page not found: /pl/404"}')
    const withPage = runNotFoundJob(ctx, { locale: 'en', raw: rawPage(20, 'Not found') })
    expect(withPage.file.path).toBe('404.html')
    expect(textOf(withPage.file.contents)).toContain('"page":{"id":20')
  })
})
