/**
 * Pure apart from the render core: a page (or an error page) in, the files
 * that represent it out. Nothing is written here (write.ts does that).
 */

import { decideHydration, preloadUrls } from '../hydration/plan.js'
import type {
  BootState,
  ClientAssets,
  PageError,
  PagePayload,
  PublicSiteInfo,
  RenderState,
} from '../shared/contract.js'
import type { PageData } from '../shared/types.js'
import { toHtmlFile, toPayloadFile } from '../shared/url.js'
import type { PageRenderer } from './renderer.js'
import type { LocaleData } from './types.js'

/** What every render of one build shares. */
export interface RenderContext {
  renderer: PageRenderer
  site: PublicSiteInfo
  buildId: string
  assets: ClientAssets
}

export interface OutputFile {
  path: string
  /** Text, or its UTF-8 bytes (how render workers hand files over without a copy). */
  contents: string | Uint8Array
}

interface DocumentInput {
  path: string
  locale: LocaleData
  status: number
  page: PageData | null
  error?: PageError
}

/**
 * JSON of `object` with one more member, `key`, whose value is already JSON text:
 * how one serialisation of a page serves both its boot JSON and its payload.
 * Example: ({ a: 1 }, 'page', '{"id":2}') -> '{"a":1,"page":{"id":2}}'.
 */
export function jsonWithMember(object: object, key: string, valueJson: string): string {
  const json = JSON.stringify(object)
  return `${json.slice(0, -1)}${json === '{}' ? '' : ','}${JSON.stringify(key)}:${valueJson}}`
}

/**
 * The HTML document of a page. The boot JSON carries the state without initial
 * data (the once-per-locale file is referenced by URL), the build id and how the main hydrates.
 * `pageJson` is `JSON.stringify(input.page)` when the caller has it.
 */
export function renderHtml(
  ctx: RenderContext,
  input: DocumentInput,
  pageJson?: string,
): { html: string; problems: string[] } {
  const state: RenderState = {
    site: ctx.site,
    mode: 'static',
    editorPreview: false,
    debug: false,
    path: input.path,
    locale: input.locale.locale,
    status: input.status,
    page: input.page,
    initialData: input.locale.initialData,
    ...(input.error ? { error: input.error } : {}),
  }
  const result = ctx.renderer.renderPage(state)
  const { initialData: _inlined, ...withoutInitialData } = state
  // How the main hydrates and what the document preloads for it: decided once, before the document.
  const hydration = decideHydration(state, ctx.assets.templateChunks)
  const preloads = preloadUrls(ctx.assets, state, hydration)
  const boot: BootState = {
    buildId: ctx.buildId,
    state: withoutInitialData,
    initialDataUrl: input.locale.initialDataUrl,
    hydration,
  }
  let bootJson: string | undefined
  if (pageJson !== undefined) {
    const { page: _shared, ...withoutPage } = withoutInitialData
    const { state: _nested, ...bootRest } = boot
    bootJson = jsonWithMember(bootRest, 'state', jsonWithMember(withoutPage, 'page', pageJson))
  }
  return {
    html: ctx.renderer.renderDocument({ result, boot, assets: ctx.assets, preloads, bootJson }),
    problems: result.problems,
  }
}

/** `index.html` and `_payload.json` of a page at `path`; the page is serialised once for both. */
export function renderPageFiles(
  ctx: RenderContext,
  input: { path: string; locale: LocaleData; page: PageData },
): { files: OutputFile[]; problems: string[] } {
  const { path, locale, page } = input
  const pageJson = JSON.stringify(page)
  const { html, problems } = renderHtml(ctx, { path, locale, status: 200, page }, pageJson)
  const payload: Omit<Extract<PagePayload, { page: PageData }>, 'page'> = {
    buildId: ctx.buildId,
    locale: locale.locale,
    path,
    status: 200,
    initialDataUrl: locale.initialDataUrl,
  }
  return {
    files: [
      { path: toHtmlFile(path), contents: html },
      { path: toPayloadFile(path), contents: jsonWithMember(payload, 'page', pageJson) },
    ],
    problems,
  }
}
