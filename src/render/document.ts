/**
 * The HTML document around a rendered page: head tags, styles, tag manager, the app
 * markup, the boot JSON the browser hydrates from, and the loader of the client's modules.
 * Deterministic: the same input gives the same bytes.
 */

import type { ClientStart } from '../hydration/plan.js'
import type { BootState, ClientAssets, HeadTag, RenderResult } from '../shared/contract.js'
import { escapeHtml } from '../shared/escape.js'
import { APP_ROOT_ID, BOOT_ELEMENT_ID, CLIENT_LOADER_ID, ROUTER_KEY, SERVICE_WORKER_URL } from '../shared/layout.js'

const GTM_ORIGIN = 'https://www.googletagmanager.com'

const ATTR_NAME_RE = /^[a-zA-Z_:][-a-zA-Z0-9_:.]*$/

/** A tag's attributes as HTML, in their order (every head tag of every page: no entry arrays). */
function attrs(values: Record<string, string>): string {
  let html = ''
  for (const name of Object.keys(values)) {
    if (!ATTR_NAME_RE.test(name)) continue
    const value = values[name]!
    html += value === '' ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`
  }
  return html
}

function headTag({ tag, attrs: values, children }: HeadTag): string {
  if (tag === 'meta' || tag === 'link') return `<${tag}${attrs(values)}>`
  // Inline scripts are JSON or engine code; `</` is broken up so content can never close the tag.
  const body = tag === 'script' ? (children ?? '').replace(/<\//g, '<\\/') : escapeHtml(children ?? '')
  return `<${tag}${attrs(values)}>${body}</${tag}>`
}

/**
 * JSON safe inside `<script type="application/json">`: `<`, `>`, `&`, U+2028 and U+2029
 * become `\u` escapes (JSON.parse reads them back unchanged).
 */
const BOOT_ESCAPES: ReadonlyArray<readonly [string, string]> = [
  ['<', '\\u003c'],
  ['>', '\\u003e'],
  ['&', '\\u0026'],
  ['\u2028', '\\u2028'],
  ['\u2029', '\\u2029'],
]

export function serializeBoot(boot: BootState): string {
  return escapeScriptJson(JSON.stringify(boot))
}

/**
 * JSON text made safe inside `<script type="application/json">` (see serializeBoot). One native pass per
 * character present: every page's boot holds its rich text's markup, and a callback per match cost
 * several times as much.
 */
function escapeScriptJson(json: string): string {
  let safe = json
  for (const [char, escaped] of BOOT_ESCAPES) if (safe.includes(char)) safe = safe.replaceAll(char, escaped)
  return safe
}

/** An http(s) origin for a consent host given as `https://host` or a bare `host`. */
function toOrigin(host: string): string | undefined {
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `https://${host}`)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined
  } catch {
    return undefined
  }
}

function trackingHead(boot: BootState): string[] {
  const { site, editorPreview } = boot.state
  // Editors working in the backend's preview pane are not visitors.
  if (editorPreview) return []
  const tags: string[] = []
  const origin = site.consentHost ? toOrigin(site.consentHost) : undefined
  if (origin) tags.push(`<link rel="preconnect" href="${escapeHtml(origin)}" crossorigin>`)
  if (site.gtmId) {
    tags.push(
      `<script>window.dataLayer=window.dataLayer||[];window.dataLayer.push({'gtm.start':new Date().getTime(),event:'gtm.js'});</script>`,
    )
    tags.push(
      `<script async src="${escapeHtml(`${GTM_ORIGIN}/gtm.js?id=${encodeURIComponent(site.gtmId)}`)}"></script>`,
    )
  }
  return tags
}

function trackingBody(boot: BootState): string {
  const { site, editorPreview } = boot.state
  if (editorPreview || !site.gtmId) return ''
  const src = escapeHtml(`${GTM_ORIGIN}/ns.html?id=${encodeURIComponent(site.gtmId)}`)
  return `<noscript><iframe src="${src}" height="0" width="0" style="display:none;visibility:hidden" title="Google Tag Manager"></iframe></noscript>`
}

/**
 * The page's client loader, an inline module script. At once it pushes the page view (title and path, as the
 * client does after each client navigation) and, on a static page, registers the service worker when the page
 * has loaded (telling it the page's client version): both belong to every visit, whether or not the client loads.
 *
 * The client's module scripts load when `start` says (`decideClientStart` in src/hydration/plan.ts); the page is
 * whole without them (prerendered). Loading them announces the scripts and the chunks the page hydrates with as
 * low-priority modulepreloads, fetched in parallel, and imports the scripts in order, as module scripts run.
 * - `paint`: once the page has painted, so nothing of the client competes with the document, its styles and
 *   images before that paint, and the paint a visitor (and Lighthouse's largest contentful paint) waits for
 *   depends on no script. Where the browser cannot report the paint, after the first frame; in a hidden tab
 *   (which paints nothing until shown) at once; with no paint reported within `CLIENT_LOAD_FALLBACK_MS`, then.
 * - `intent`: at the visitor's first action on the page (`CLIENT_INTENT_EVENTS`) once it has painted (as above): a
 *   reader who only reads never pays for evaluating React, which was a page's one long task (Lighthouse's Total
 *   Blocking Time).
 */
export const CLIENT_LOAD_FALLBACK_MS = 3000
/** What counts as the visitor's first action: a mouse over the page, a press, a touch, a key, a focus, a wheel. */
export const CLIENT_INTENT_EVENTS = [
  'pointerover',
  'pointermove',
  'pointerdown',
  'touchstart',
  'keydown',
  'focusin',
  'wheel',
] as const

interface ClientLoaderOptions {
  start: ClientStart
  /** A static page's client version: the loader registers the service worker and tells it this version. */
  serviceWorker?: string | undefined
}

function clientLoader(scripts: readonly string[], preloads: readonly string[], options: ClientLoaderOptions): string {
  if (scripts.length === 0) return ''
  const json = (value: unknown) => escapeScriptJson(JSON.stringify(value))
  const sw = options.serviceWorker
  return [
    `<script id="${CLIENT_LOADER_ID}" type="module">`,
    `const s=${json(scripts)},p=${json(preloads)},d=document,w=window;let n=0;`,
    // The page's path without the trailing slash or `index.html` of a host that serves each page from its folder
    // (`/about-us/`, `/about-us/index.html`), as the client counts its navigations (src/client/tracking.ts): one
    // page, one path.
    "(w.dataLayer=w.dataLayer||[]).push({event:'page_view',page_title:d.title,page_path:location.pathname.replace(/\\/(index\\.html)?$/,'')||'/'});",
    // A history entry the router wrote has manual scroll restoration: on a reload, or back to it after a full
    // page load, the browser leaves the page at the top. Its saved position is restored here, at once, not when
    // the client loads (at the visitor's first action, wherever they have scrolled to by then).
    "const h=history.state;if(history.scrollRestoration==='manual'&&h?.site===1&&(h.x||h.y))scrollTo(h.x,h.y);",
    // A router's full load of the entry back/forward reached (`location.replace`) leaves its other entries in this
    // document: back/forward to one only changes the URL. Until the router is here to render it, load it in full.
    `const u=location.pathname+location.search;w.addEventListener('popstate',()=>{if(!w[Symbol.for(${json(ROUTER_KEY)})]&&location.pathname+location.search!==u)location.reload()});`,
    sw === undefined
      ? ''
      : `w.addEventListener('load',()=>{const c=navigator.serviceWorker;if(c&&w.isSecureContext)c.register(${json(SERVICE_WORKER_URL)}).then(()=>c.ready).then(r=>r.active?.postMessage({type:'site:build',buildId:${json(sw)}})).catch(()=>{})},{once:true});`,
    "const go=()=>{if(n++)return;for(const h of [...s,...p]){const l=d.createElement('link');l.rel='modulepreload';l.href=h;l.fetchPriority='low';d.head.append(l)}",
    's.reduce((a,u)=>a.then(()=>import(u)),Promise.resolve())};',
    // What happens once painted: loading, or waiting for the visitor's first action.
    options.start === 'intent'
      ? `const r=()=>{for(const t of ${json(CLIENT_INTENT_EVENTS)})w.addEventListener(t,go,{capture:true,passive:true,once:true})};`
      : 'const r=go;',
    "if(d.visibilityState==='hidden')r();",
    "else{if(PerformanceObserver.supportedEntryTypes?.includes('paint'))new PerformanceObserver((_,o)=>{o.disconnect();r()}).observe({type:'paint',buffered:true});",
    `else requestAnimationFrame(()=>setTimeout(r));setTimeout(r,${CLIENT_LOAD_FALLBACK_MS})}`,
    '</script>',
  ].join('')
}

/** A part of the document that every page with the same assets shares (an inline `<style>`): its text and its UTF-8 bytes. */
export interface SharedPart {
  readonly text: string
  readonly shared: Uint8Array
}

/** A part of a document: text of this page, or a part every page with the same assets shares. */
export type DocumentPart = string | SharedPart

/** What the document of every page with these assets shares: made once by whoever renders many pages (a build's render context, a preview context). */
export interface DocumentShell {
  readonly styles: readonly SharedPart[]
}

const utf8 = new TextEncoder()

/** The shared parts of the documents of pages with these assets: the `<style>` elements of its inline styles. */
export function createDocumentShell(assets: ClientAssets): DocumentShell {
  const styles = (assets.inlineStyles ?? []).map((css): SharedPart => {
    // CSS text cannot end the element early: `</style` is written `<\/style` (a CSS escape of the same text).
    const text = `<style>${css.replace(/<\/(style)/gi, '<\\/$1')}</style>`
    return { text, shared: utf8.encode(text) }
  })
  return { styles }
}

/** A document's text. Example: (['<p>', { text: '<style>a{}</style>', … }]) -> '<p><style>a{}</style>'. */
export const documentText = (parts: readonly DocumentPart[]): string =>
  parts.map((part) => (typeof part === 'string' ? part : part.text)).join('')

export interface DocumentInput {
  result: RenderResult
  boot: BootState
  assets: ClientAssets
  /** Modulepreload URLs, as the hydration plan decided them (src/hydration/plan.ts `preloadUrls`), announced by the client loader. */
  preloads: readonly string[]
  /** When the browser loads the client (`decideClientStart` in src/hydration/plan.ts); `paint` when not given. */
  start?: ClientStart
  /**
   * `boot` as parts whose concatenation is its JSON text, when the caller has it already (the build shares
   * the page's JSON with its payload).
   */
  bootJson?: readonly string[]
  /** The parts every page with `assets` shares (createDocumentShell), made once by the caller; made here when not given. */
  shell?: DocumentShell
}

/**
 * The full HTML document of a rendered page, as the parts whose concatenation is its text. It decides
 * nothing: what the page hydrates with and preloads comes decided in `boot.hydration` and `preloads`
 * (see src/render/assemble.ts). A bundle's inline `<style>` elements are shared parts (DocumentShell),
 * so that a build encodes them once, not per page.
 */
export function renderDocumentParts(input: DocumentInput): DocumentPart[] {
  const { result, boot, assets, preloads, start, bootJson } = input
  const head: DocumentPart[] = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ...result.head.map(headTag),
    ...(input.shell ?? createDocumentShell(assets)).styles,
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...trackingHead(boot),
  ]
  const lines: Array<DocumentPart | readonly string[]> = [
    '<!doctype html>',
    `<html lang="${escapeHtml(result.htmlAttrs.lang)}" dir="${escapeHtml(result.htmlAttrs.dir)}">`,
    '<head>',
    ...head,
    '</head>',
    `<body class="${escapeHtml(result.bodyAttrs.class)}">`,
    trackingBody(boot),
    `<div id="${APP_ROOT_ID}">${result.appHtml}</div>`,
    // the boot JSON's parts escaped one by one (the escapes are of single characters): the page's JSON is
    // copied into no longer string
    [
      `<script id="${BOOT_ELEMENT_ID}" type="application/json">`,
      ...(bootJson === undefined ? [serializeBoot(boot)] : bootJson.map(escapeScriptJson)),
      '</script>',
    ],
    clientLoader(assets.scripts, preloads, {
      start: start ?? 'paint',
      serviceWorker: boot.state.mode === 'static' ? boot.clientVersion : undefined,
    }),
    '</body>',
    '</html>',
  ]
  // One line (or a line's parts) per part, each line ended by a newline of its own.
  const parts: DocumentPart[] = []
  for (const line of lines) {
    if (Array.isArray(line)) parts.push(...line, '\n')
    else if (line !== '') parts.push(line as DocumentPart, '\n')
  }
  return parts
}

/** The full HTML document of a rendered page, as text (see renderDocumentParts). */
export const renderDocument = (input: DocumentInput): string => documentText(renderDocumentParts(input))
