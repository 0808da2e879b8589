/**
 * The one assembly of a page, for `site build` and `site preview` alike: a route and its
 * prepared data in; the render state, the HTML document, the payload, the status and the
 * data problems out. The hydration plan is decided here, before the document is rendered.
 * Build and preview differ only in what they do with the result (write files, answer a
 * request) and in what they pass: preview's mode, editor assets and reload stream, the
 * build's once-per-locale initial data file.
 */
import { decideClientStart, decideHydration, preloadUrls } from '../hydration/plan.js'
import type {
  BootState,
  ClientAssets,
  DataProblem,
  PageError,
  PublicSiteInfo,
  RenderMode,
  RenderState,
  TemplateFallback,
} from '../shared/contract.js'
import type { InitialData, PageData } from '../shared/types.js'
import type { DocumentPart, DocumentShell } from './document.js'
import { jsonWithMemberParts, pagePayloadParts } from './payload.js'
import type { PageRenderer } from './renderer.js'

/** What every page of one build, or of one preview context, shares. */
export interface AssemblyContext {
  renderer: Pick<PageRenderer, 'renderPage' | 'renderDocumentParts'>
  mode: RenderMode
  site: PublicSiteInfo
  /** The version of the client code (BootState.clientVersion): the build's asset hash, or preview's constant. */
  clientVersion: string
  /** The visitor's assets, with the template chunks the hydration plan reads. */
  assets: ClientAssets
  /** The document parts every page with `assets` shares, made once (createDocumentShell). */
  shell?: DocumentShell
  /** Preview: the editor widgets' assets, loaded after the visitor's on editor preview pages. */
  editorAssets?: ClientAssets
  /** Preview: the stream that announces reloads to open tabs. */
  reloadEventsUrl?: string
  /** Preview: the preview entry's assets (live reload, the error overlay), loaded after the others on every page. */
  previewAssets?: ClientAssets
}

/** One route and the data it renders with. */
export interface PageView {
  /** Normalised path with locale prefix: `/pl/o-nas`. */
  path: string
  locale: string
  status: number
  /** Prepared page data; null for an error page without page content. */
  page: PageData | null
  error?: PageError
  initialData: InitialData
  /**
   * Where the browser finds the locale's initial data: the build's content-hashed file (the boot
   * then leaves initial data out) or preview's live URL (preview inlines it in the boot).
   */
  initialDataUrl: string
  /** Preview: editor widgets (`?pce=1`) and raw errors (`?debug`). */
  editorPreview?: boolean
  debug?: boolean
}

export interface AssembledPage {
  state: RenderState
  /** The HTML document as parts (renderDocumentParts); `documentText(document)` is its text. */
  document: DocumentPart[]
  /**
   * The page's payload as parts whose concatenation is its JSON text (the page's JSON one part of it, as
   * in the boot JSON); undefined for an error page without page data (there is none).
   */
  payload: string[] | undefined
  status: number
  problems: DataProblem[]
  /** Layouts and content element types the page rendered with `Default` (see RenderResult). */
  fallbacks: TemplateFallback[]
}

// The visitor's assets (template chunks included, so that the page preloads what it hydrates with) plus the editor's.
const joinAssets = (a: ClientAssets, b: ClientAssets): ClientAssets => ({
  ...a,
  scripts: [...a.scripts, ...b.scripts],
  styles: [...a.styles, ...b.styles],
  modulePreloads: [...(a.modulePreloads ?? []), ...(b.modulePreloads ?? [])],
})

/**
 * Renders one page. The page is serialised once: the same JSON text goes into the boot JSON
 * and the payload. A template that throws outside a content element throws (RENDER_FAILED).
 */
export function assemblePage(ctx: AssemblyContext, view: PageView): AssembledPage {
  const editorPreview = ctx.mode === 'preview' && view.editorPreview === true
  const state: RenderState = {
    site: ctx.site,
    mode: ctx.mode,
    editorPreview,
    debug: ctx.mode === 'preview' && view.debug === true,
    path: view.path,
    locale: view.locale,
    status: view.status,
    page: view.page,
    initialData: view.initialData,
    ...(view.error ? { error: view.error } : {}),
  }
  const result = ctx.renderer.renderPage(state)
  const visitor = editorPreview && ctx.editorAssets ? joinAssets(ctx.assets, ctx.editorAssets) : ctx.assets
  const assets = ctx.mode === 'preview' && ctx.previewAssets ? joinAssets(visitor, ctx.previewAssets) : visitor
  // How the main hydrates and what the document preloads for it: decided once, here.
  const hydration = decideHydration(state, ctx.assets.templateChunks)
  const preloads = preloadUrls(assets, state, hydration)
  const start = decideClientStart(state.mode, ctx.assets.templateChunks, hydration)
  // A static page refers to its locale's initial data file; preview inlines the live data.
  const inline = ctx.mode === 'preview'
  const { initialData: _referenced, ...withoutInitialData } = state
  const boot: BootState = {
    clientVersion: ctx.clientVersion,
    state: inline ? state : withoutInitialData,
    ...(inline ? {} : { initialDataUrl: view.initialDataUrl }),
    ...(ctx.reloadEventsUrl ? { reloadEventsUrl: ctx.reloadEventsUrl } : {}),
    hydration,
  }
  const pageJson = view.page ? JSON.stringify(view.page) : undefined
  let bootJson: string[] | undefined
  if (pageJson !== undefined) {
    const { page: _shared, ...stateRest } = boot.state
    const { state: _nested, ...bootRest } = boot
    bootJson = jsonWithMemberParts(bootRest, 'state', jsonWithMemberParts(stateRest, 'page', [pageJson]))
  }
  const shell = assets === ctx.assets ? ctx.shell : undefined
  const document = ctx.renderer.renderDocumentParts({ result, boot, assets, preloads, start, bootJson, shell })
  const payload =
    pageJson === undefined
      ? undefined
      : pagePayloadParts(
          {
            clientVersion: ctx.clientVersion,
            locale: view.locale,
            path: view.path,
            status: result.status,
            initialDataUrl: view.initialDataUrl,
          },
          pageJson,
        )
  return {
    state,
    document,
    payload,
    status: result.status,
    problems: result.problems,
    fallbacks: result.fallbacks ?? [],
  }
}
