import { describe, expect, it } from 'vitest'
import {
  CLIENT_INTENT_EVENTS,
  CLIENT_LOAD_FALLBACK_MS,
  renderDocument,
  serializeBoot,
} from '../../../src/render/document.js'
import type { BootState, RenderResult } from '../../../src/shared/contract.js'
import { escapeHtml } from '../../../src/shared/escape.js'
import { clientModulesOf, loaderModulesOf } from '../../shared/client-modules.js'
import { makeState } from './helpers.js'

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
  return { clientVersion: 'c1', state, initialDataUrl: '/_site/data/en.json', hydration: { kind: 'kept' } }
}

/** The text of the document's client loader. */
const loaderText = (html: string): string => {
  const match = /<script id="__SITE_LOADER__" type="module">([^<]*)<\/script>/.exec(html)
  if (!match) throw new Error('no client loader')
  return match[1] as string
}

const assets = {
  scripts: ['/_site/client-abc.js'],
  styles: ['/_site/styles-abc.css'],
  modulePreloads: ['/_site/chunk-1.js'],
}

describe('renderDocument', () => {
  // A small stylesheet is inlined, so the first paint waits for no request.
  it('inlines the stylesheets the bundle inlines, so that no stylesheet blocks rendering', () => {
    const inline = { scripts: [], styles: [], inlineStyles: ['body{margin:0}a::after{content:"</style><script>"}'] }
    const html = renderDocument({ result: result(), boot: boot(), assets: inline, preloads: [] })
    expect(html).toContain('<style>body{margin:0}a::after{content:"<\\/style><script>"}</style>')
    expect(html).not.toContain('rel="stylesheet"')
    expect(html.match(/<\/style>/g)).toHaveLength(1)
  })

  it('writes the shell: doctype, html lang/dir, charset, viewport, head tags, assets, body class, app root', () => {
    const html = renderDocument({ result: result(), boot: boot(), assets, preloads: assets.modulePreloads })
    expect(html.startsWith('<!doctype html>\n<html lang="pl" dir="ltr">\n<head>\n<meta charset="utf-8">')).toBe(true)
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
    expect(html).toContain('<title data-site-head>About</title>')
    expect(html).toContain('<meta name="description" content="Who we are" data-site-head>')
    expect(html).toContain('<link rel="stylesheet" href="/_site/styles-abc.css">')
    expect(html).toContain('<body class="pid-7 layout-layout-0">')
    expect(html).toContain('<div id="__site"><main id="main">Hello</main></div>')
    // No script or preload is fetched before the page painted: the loader, after the boot JSON, announces them.
    expect(html).not.toMatch(/<link rel="modulepreload"|<script[^>]* src=/)
    expect(clientModulesOf(html)).toEqual({ scripts: ['/_site/client-abc.js'], preloads: ['/_site/chunk-1.js'] })
    expect(html.indexOf('__SITE_BOOT__')).toBeLessThan(html.indexOf('"/_site/client-abc.js"'))
  })

  it('is deterministic', () => {
    const input = { result: result(), boot: boot({ gtmId: 'GTM-ABC123' }), assets, preloads: assets.modulePreloads }
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
    const html = renderDocument({ result: hostile, boot: boot(), assets: { scripts: [], styles: [] }, preloads: [] })
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
    const payload: BootState = { clientVersion: 'c', state, hydration: { kind: 'kept' } }
    const html = renderDocument({ result: result(), boot: payload, assets: { scripts: [], styles: [] }, preloads: [] })
    const json = html.slice(
      html.indexOf('application/json">') + 18,
      html.indexOf('</script>', html.indexOf('__SITE_BOOT__')),
    )
    expect(json).not.toMatch(/[<>&\u2028\u2029]/)
    expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(payload)))
    expect(serializeBoot(payload)).toContain('\\u003c/script\\u003e')
  })

  it('decides nothing: writes the boot’s hydration and the preloads it is given, as they are', () => {
    const bootJson = (html: string) =>
      JSON.parse(
        html.slice(html.indexOf('application/json">') + 18, html.indexOf('</script>', html.indexOf('__SITE_BOOT__'))),
      ) as BootState
    const islands = { kind: 'islands' as const, islands: [{ uid: 5, index: 0, template: 'Text' }] }
    const html = renderDocument({
      result: result(),
      boot: { ...boot(), hydration: islands },
      assets: { ...assets, templateChunks: { layouts: {}, content: { Text: ['/_site/c-text.js'] }, client: [] } },
      preloads: ['/_site/islands.js', '/_site/c-text.js'],
    })
    expect(bootJson(html).hydration).toEqual(islands)
    expect(clientModulesOf(html).preloads).toEqual(['/_site/islands.js', '/_site/c-text.js'])
  })

  it('adds no tag manager without a container id; the loader still counts the page view', () => {
    const html = renderDocument({ result: result(), boot: boot(), assets, preloads: assets.modulePreloads })
    expect(html).not.toMatch(/googletagmanager|preconnect/)
    const loader = loaderText(html)
    expect(html.split('dataLayer').length - 1).toBe(loader.split('dataLayer').length - 1)
    expect(loader).toContain(
      "push({event:'page_view',page_title:d.title,page_path:location.pathname.replace(/\\/(index\\.html)?$/,'')||'/'})",
    )
  })

  it('loads the client once painted unless told to wait for the visitor’s first action', () => {
    const painted = loaderText(renderDocument({ result: result(), boot: boot(), assets, preloads: [] }))
    expect(painted).toContain('const r=go;')
    expect(painted).not.toContain('pointerover')
    const waiting = loaderText(
      renderDocument({ result: result(), boot: boot(), assets, preloads: [], start: 'intent' }),
    )
    for (const event of CLIENT_INTENT_EVENTS) expect(waiting).toContain(`"${event}"`)
    expect(waiting).toContain('w.addEventListener(t,go,{capture:true,passive:true,once:true})')
    // Either way nothing before the page has painted: the listeners of the first action are added then.
    for (const loader of [painted, waiting]) {
      expect(loader).toContain(
        "new PerformanceObserver((_,o)=>{o.disconnect();r()}).observe({type:'paint',buffered:true})",
      )
      expect(loader).toContain(`setTimeout(r,${CLIENT_LOAD_FALLBACK_MS})`)
    }
    // Either way the same modules, and only through `go`.
    expect(loaderModulesOf(waiting)).toEqual(loaderModulesOf(painted))
  })

  it('registers the service worker on a static page’s load with its client version, never in preview', () => {
    const loader = loaderText(renderDocument({ result: result(), boot: boot(), assets, preloads: [] }))
    expect(loader).toContain("w.addEventListener('load',")
    expect(loader).toContain('c.register("/sw.js")')
    expect(loader).toContain(`postMessage({type:'site:build',buildId:"c1"})`)
    const preview = renderDocument({ result: result(), boot: boot({}, { mode: 'preview' }), assets, preloads: [] })
    expect(loaderText(preview)).not.toContain('serviceWorker')
    const hostile = boot()
    hostile.clientVersion = '</script><script>alert(1)</script>'
    const escaped = loaderText(renderDocument({ result: result(), boot: hostile, assets, preloads: [] }))
    expect(escaped).toContain('buildId:"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"')
  })

  it('defines dataLayer before the tag manager loads, preconnects the consent host', () => {
    const html = renderDocument({
      result: result(),
      boot: boot({ gtmId: 'GTM-ABC123', consentHost: 'https://consent.example.com' }),
      assets,
      preloads: assets.modulePreloads,
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
      preloads: assets.modulePreloads,
    })
    expect(html).toContain('href="https://consent.example.com"')
    expect(html).toContain('gtm.js?id=GTM-%22x%22')
  })

  it('leaves tracking out of the editor preview', () => {
    const html = renderDocument({
      result: result(),
      boot: boot({ gtmId: 'GTM-ABC123' }, { mode: 'preview', editorPreview: true }),
      assets,
      preloads: assets.modulePreloads,
    })
    expect(html).not.toContain('googletagmanager')
  })

  it('escapes the five HTML characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;')
  })
})
