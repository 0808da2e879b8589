/**
 * Pure apart from the render core: a page (or an error page) in, the files that represent it
 * out, through the one page assembly (src/render/assemble.ts). Nothing is written here.
 */
import { type AssembledPage, assemblePage, type PageView } from '../render/assemble.js'
import type { PageRenderer } from '../render/renderer.js'
import type { ClientAssets, DataProblem, PublicSiteInfo, TemplateFallback } from '../shared/contract.js'
import type { PageData } from '../shared/types.js'
import { toHtmlFile, toPayloadFile } from '../shared/url.js'
import type { LocaleData } from './types.js'

/** What every render of one build shares. */
export interface RenderContext {
  renderer: PageRenderer
  site: PublicSiteInfo
  /** The version of the client code (a hash of the client bundle's files): the same in every build with the same templates. */
  clientVersion: string
  assets: ClientAssets
}

export interface OutputFile {
  path: string
  /** Text, or its UTF-8 bytes (how render workers hand files over without a copy). */
  contents: string | Uint8Array
  /** The content hash of the bytes (see hashContents), when the render worker computed it. */
  hash?: string
}

/** A page file as a render job hands it over: or only its hash, when its bytes are the previous output's. */
export type PageFile = OutputFile | { path: string; hash: string; contents?: undefined }

/** A build's page, as a static page: initial data referenced by its once-per-locale file. */
export function assembleStatic(
  ctx: RenderContext,
  view: Omit<PageView, 'initialData' | 'initialDataUrl' | 'locale'> & { locale: LocaleData },
): AssembledPage {
  const { locale, ...rest } = view
  return assemblePage(
    { renderer: ctx.renderer, mode: 'static', site: ctx.site, clientVersion: ctx.clientVersion, assets: ctx.assets },
    { ...rest, locale: locale.locale, initialData: locale.initialData, initialDataUrl: locale.initialDataUrl },
  )
}

/** `index.html` and `_payload.json` of a page at `path`. */
export function renderPageFiles(
  ctx: RenderContext,
  input: { path: string; locale: LocaleData; page: PageData },
): { files: OutputFile[]; problems: DataProblem[]; fallbacks: TemplateFallback[] } {
  const { html, payload, problems, fallbacks } = assembleStatic(ctx, { ...input, status: 200 })
  return {
    files: [
      { path: toHtmlFile(input.path), contents: html },
      { path: toPayloadFile(input.path), contents: payload ?? '' },
    ],
    problems,
    fallbacks,
  }
}
