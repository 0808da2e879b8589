import { describe, expect, it } from 'vitest'
import { renderDocument, serializeBoot } from '../../../src/render/document.js'
import type { BootState, RenderResult } from '../../../src/shared/contract.js'
import { escapeHtml } from '../../../src/shared/escape.js'
import { makeElement, makePage, makeState } from './helpers.js'

const result = (extra: Partial<RenderResult> = {}): RenderResult => ({
  appHtml: '<main id="main">Hello</main>',
  head: [
    { tag: 'title', attrs: { 'data-site-head': '' }, children: 'About' },
    { tag: 'meta', attrs: { name: 'description', content: 'Who we are', 'data-site-head': '' } },
  ],
  htmlAttrs: { lang: 'pl', dir: 'ltr' },
  bodyAttrs: { class: 'pid-7 layout-layout-0' },
  status: 200,
  problems: [],
  ...extra,
})

const boot = (
  site: Partial<ReturnType<typeof makeState>['site']> = {},
  extra: Partial<ReturnType<typeof makeState>> = {},
): BootState => {
  const state = makeState({ ...extra, site: { ...makeState().site, ...site } })
  return { buildId: 'b1', state, initialDataUrl: '/_site/data/en.json' }
}

const assets = {
  scripts: ['/_site/client-abc.js'],
  styles: ['/_site/styles-abc.css'],
  modulePreloads: ['/_site/chunk-1.js'],
}

describe('renderDocument', () => {
  it('writes the shell: doctype, html lang/dir, charset, viewport, head tags, assets, body class, app root', () => {
    const html = renderDocument({ result: result(), boot: boot(), assets })
    expect(html.startsWith('<!doctype html>\n<html lang="pl" dir="ltr">\n<head>\n<meta charset="utf-8">')).toBe(true)
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
    expect(html).toContain('<title data-site-head>About</title>')
    expect(html).toContain('<meta name="description" content="Who we are" data-site-head>')
    expect(html).toContain('<link rel="stylesheet" href="/_site/styles-abc.css">')
    expect(html).toContain('<link rel="modulepreload" href="/_site/chunk-1.js">')
    expect(html).toContain('<body class="pid-7 layout-layout-0">')
    expect(html).toContain('<div id="__site"><main id="main">Hello</main></div>')
    expect(html).toContain('<script type="module" src="/_site/client-abc.js"></script>')
    expect(html.indexOf('__SITE_BOOT__')).toBeLessThan(html.indexOf('client-abc.js"></script>'))
  })

  it('is deterministic', () => {
    const input = { result: result(), boot: boot({ gtmId: 'GTM-ABC123' }), assets }
    expect(renderDocument(input)).toBe(renderDocument(input))
  })

  it('escapes head text and attribute values', () => {
    const hostile = result({
      head: [
        { tag: 'title', attrs: {}, children: '<script>alert(1)</script></title>' },
        { tag: 'meta', attrs: { name: 'description', content: '"><script>alert(2)</script>' } },
        { tag: 'meta', attrs: { property: 'og:title', content: "it's </title> & more", 'bad name"': 'x' } },
      ],
      htmlAttrs: { lang: 'en" onload="x', dir: 'ltr' },
      bodyAttrs: { class: '"><script>' },
    })
    const html = renderDocument({ result: hostile, boot: boot(), assets: { scripts: [], styles: [] } })
    expect(html).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;&lt;/title&gt;</title>')
    expect(html).toContain('content="&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"')
    expect(html).toContain('content="it&#39;s &lt;/title&gt; &amp; more"')
    expect(html).not.toContain('bad name')
    expect(html).toContain('<html lang="en&quot; onload=&quot;x"')
    expect(html.match(/<script/g)).toHaveLength(1)
  })

  it('escapes the boot JSON so no content can close the script tag', () => {
    const state = makeState({
      page: null,
      path: '/</script><script>alert(1)</script>',
      error: { status: 404, message: '<!-- & \u2028\u2029 -->' },
    })
    const payload: BootState = { buildId: 'b', state }
    const html = renderDocument({ result: result(), boot: payload, assets: { scripts: [], styles: [] } })
    const json = html.slice(
      html.indexOf('application/json">') + 18,
      html.indexOf('</script>', html.indexOf('__SITE_BOOT__')),
    )
    expect(json).not.toMatch(/[<>&\u2028\u2029]/)
    // A boot without `hydration` gets it (no template chunks: full).
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify({ ...payload, hydration: { kind: 'full' } })))
    expect(serializeBoot(payload)).toContain('\\u003c/script\\u003e')
  })

  it('writes into a boot without it how the main hydrates, as its preloads decide; keeps a boot’s own', () => {
    const bootJson = (html: string) =>
      JSON.parse(
        html.slice(html.indexOf('application/json">') + 18, html.indexOf('</script>', html.indexOf('__SITE_BOOT__'))),
      ) as BootState
    const chunks = {
      layouts: {},
      content: { Text: ['/_site/c-text.js'] },
      islands: ['/_site/islands.js'],
      main: ['/_site/main.js'],
    }
    const page = makePage([makeElement('text', {}, { id: 5 })])
    const kept = renderDocument({
      result: result(),
      boot: boot({}, { page }),
      assets: { ...assets, templateChunks: { ...chunks, client: [] } },
    })
    expect(bootJson(kept).hydration).toEqual({ kind: 'kept' })
    const islands = renderDocument({
      result: result(),
      boot: boot({}, { page }),
      assets: { ...assets, templateChunks: { ...chunks, client: ['content/Text'] } },
    })
    expect(bootJson(islands).hydration).toEqual({ kind: 'islands', islands: [{ uid: 5, index: 0, template: 'Text' }] })
    expect(islands).toContain('<link rel="modulepreload" href="/_site/islands.js">')
    // Told: the boot's answer is the one both the browser and the preloads follow.
    const told = renderDocument({
      result: result(),
      boot: { ...boot({}, { page }), hydration: { kind: 'full' } },
      assets: { ...assets, templateChunks: { ...chunks, client: ['content/Text'] } },
    })
    expect(bootJson(told).hydration).toEqual({ kind: 'full' })
    expect(told).toContain('<link rel="modulepreload" href="/_site/main.js">')
    expect(told).not.toContain('islands.js')
  })

  it('adds no tracking without a container id', () => {
    const html = renderDocument({ result: result(), boot: boot(), assets })
    expect(html).not.toMatch(/googletagmanager|dataLayer|preconnect/)
  })

  it('defines dataLayer before the tag manager loads, preconnects the consent host', () => {
    const html = renderDocument({
      result: result(),
      boot: boot({ gtmId: 'GTM-ABC123', consentHost: 'https://consent.example.com' }),
      assets,
    })
    const dataLayer = html.indexOf('window.dataLayer=window.dataLayer||[]')
    const gtm = html.indexOf('<script async src="https://www.googletagmanager.com/gtm.js?id=GTM-ABC123"></script>')
    expect(dataLayer).toBeGreaterThan(0)
    expect(gtm).toBeGreaterThan(dataLayer)
    expect(html).toContain('<link rel="preconnect" href="https://consent.example.com" crossorigin>')
    expect(html).toContain('ns.html?id=GTM-ABC123')
  })

  it('preconnects a bare consent host and encodes the container id', () => {
    const html = renderDocument({
      result: result(),
      boot: boot({ gtmId: 'GTM-"x"', consentHost: 'consent.example.com' }),
      assets,
    })
    expect(html).toContain('href="https://consent.example.com"')
    expect(html).toContain('gtm.js?id=GTM-%22x%22')
  })

  it('leaves tracking out of the editor preview', () => {
    const html = renderDocument({
      result: result(),
      boot: boot({ gtmId: 'GTM-ABC123' }, { mode: 'preview', editorPreview: true }),
      assets,
    })
    expect(html).not.toContain('googletagmanager')
  })

  it('preloads the texts of its locale and, when its main hydrates (use client), the template chunks of its main (of its islands only when just content elements are marked), each URL once', () => {
    const chunks = {
      layouts: {
        Default: ['/_site/l-default.js', '/_site/shared-layouts.js'],
        TwoColumns: ['/_site/l-two.js', '/_site/shared-layouts.js'],
      },
      content: {
        Default: ['/_site/c-default.js'],
        Text: ['/_site/c-text.js'],
        Shortcut: ['/_site/c-shortcut.js'],
        Image: ['/_site/c-image.js', '/_site/chunk-1.js'],
        Table: ['/_site/c-table.js'],
      },
      texts: { en: ['/_site/t-en.js'], pl: ['/_site/t-pl.js'] },
      ErrorPage: ['/_site/error.js'],
      islands: ['/_site/islands.js', '/_site/chunk-1.js'],
    }
    const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1])
    const page = makePage(
      [
        makeElement('text', {}),
        makeElement('shortcut', { shortcut: [makeElement('image', {}, { id: 12 })] }),
        makeElement('custom_widget', {}),
      ],
      {
        appearance: { backendLayout: 'two_columns' },
      },
    )
    const render = (client: string[], extra: Parameters<typeof boot>[1]) =>
      preloads(
        renderDocument({
          result: result(),
          boot: boot({}, extra),
          assets: { ...assets, templateChunks: { ...chunks, client } },
        }),
      )
    // Markup-only templates: the main keeps the server's markup, only the locale's texts load.
    expect(render([], { page, locale: 'pl' })).toEqual(['/_site/chunk-1.js', '/_site/t-pl.js'])
    expect(render(['content/Table'], { page, locale: 'de' })).toEqual(['/_site/chunk-1.js', '/_site/t-en.js'])
    // The layout marked use client: all of the main's templates.
    expect(render(['layouts/TwoColumns'], { page })).toEqual([
      '/_site/chunk-1.js',
      '/_site/l-two.js',
      '/_site/shared-layouts.js',
      '/_site/c-default.js',
      '/_site/c-image.js',
      '/_site/c-shortcut.js',
      '/_site/c-text.js',
      '/_site/t-en.js',
    ])
    // Only a content element marked (nested here): islands, its chunk and the code that hydrates islands only.
    expect(render(['content/Image'], { page })).toEqual([
      '/_site/chunk-1.js',
      '/_site/t-en.js',
      '/_site/islands.js',
      '/_site/c-image.js',
    ])
    // Editor preview hydrates everything.
    expect(render([], { page, editorPreview: true })).toContain('/_site/c-text.js')
    // An error page without page data renders the error page in its main.
    expect(render([], { page: null, status: 404 })).toEqual(['/_site/chunk-1.js', '/_site/t-en.js'])
    expect(render(['ErrorPage'], { page: null, status: 404 })).toEqual([
      '/_site/chunk-1.js',
      '/_site/error.js',
      '/_site/t-en.js',
    ])
  })

  it('escapes the five HTML characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
  })
})
