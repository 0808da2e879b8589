/**
 * Pure apart from the render core: a page (or an error page) in, the files
 * that represent it out. Nothing is written here (write.ts does that).
 */
import type { BootState, ClientAssets, PagePayload, PageError, PublicSiteInfo, RenderState } from '../render/types.js'
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
 * The HTML document of a page. The boot JSON carries the state without initial
 * data (the once-per-locale file is referenced by URL) and the build id.
 */
export function renderHtml(ctx: RenderContext, input: DocumentInput): { html: string; problems: string[] } {
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
  const boot: BootState = { buildId: ctx.buildId, state: withoutInitialData, initialDataUrl: input.locale.initialDataUrl }
  return { html: ctx.renderer.renderDocument({ result, boot, assets: ctx.assets }), problems: result.problems }
}

/** `index.html` and `_payload.json` of a page at `path`. */
export function renderPageFiles(ctx: RenderContext, input: { path: string; locale: LocaleData; page: PageData }): { files: OutputFile[]; problems: string[] } {
  const { path, locale, page } = input
  const { html, problems } = renderHtml(ctx, { path, locale, status: 200, page })
  const payload: PagePayload = { buildId: ctx.buildId, locale: locale.locale, path, status: 200, page, initialDataUrl: locale.initialDataUrl }
  return {
    files: [
      { path: toHtmlFile(path), contents: html },
      { path: toPayloadFile(path), contents: JSON.stringify(payload) },
    ],
    problems,
  }
}
