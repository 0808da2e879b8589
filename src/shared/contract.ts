/**
 * The render contract: the shapes the render core (src/render), the runtime components
 * (src/runtime, `typo3-headless-site/runtime`), the browser client (src/client), build and preview share.
 * Types only, so both sides may import them. Render is pure: data in, strings out.
 */
import type { ComponentType, ReactNode } from 'react'
import type { ContentElement, InitialData, LanguageEntry, NavEntry, PageContent, PageData } from './types.js'
import type { LocaleOptions } from './url.js'

/** `static`: a page of `site build` (visitor). `preview`: a page of `site preview`. */
export type RenderMode = 'static' | 'preview'

/** What the browser may know about the site: never API credentials or headers. */
export interface PublicSiteInfo {
  baseUrl: string | undefined
  i18n: LocaleOptions
  gtmId: string | undefined
  consentHost: string | undefined
  /** `features.i18nMiddleware`: re-fetch initial data when a navigation changes locale. */
  i18nMiddleware: boolean
}

/** An error shown by the error page. `raw` is shown only with `debug` in preview. */
export interface PageError {
  status: number
  message: string
  raw?: unknown
  /** Preview: what the editor can do about it (the API did not answer: which option to check). */
  hint?: string
}

/**
 * Preview: what stops the templates now (a compile error, a template that throws while loading), sent to open
 * tabs as the `problem` event of the reload stream and shown over the page until a change fixes it.
 */
export interface PreviewProblem {
  /** `Template failed to compile`. */
  title: string
  /** The error's message (esbuild's text, or the error's). */
  message: string
  /** Where, relative to the project root: `templates/content/Text.tsx`, line and column from 1. */
  file?: string
  line?: number
  column?: number
  /** The lines around it, numbered, with a `>` on the line and a `^` under the column. */
  frame?: string
}

/** Everything one render needs. The same value hydrates the browser (see `BootState`). */
export interface RenderState {
  site: PublicSiteInfo
  mode: RenderMode
  /** Editor preview widgets on (`?pce=1` and `features.contentPreview`). */
  editorPreview: boolean
  /** `?debug` in preview: raw errors and raw data of unknown elements. Never in a static build. */
  debug: boolean
  /** Normalised path of the page, with locale prefix: `/pl/o-nas`. */
  path: string
  locale: string
  /** HTTP status of the page: 200, or the error status. */
  status: number
  /** Page data (already sanitised); with an error status, the error body's page when it carried one. */
  page: PageData | null
  initialData: InitialData
  error?: PageError
}

export interface HeadTag {
  tag: 'title' | 'meta' | 'link' | 'script'
  attrs: Record<string, string>
  /** Text content (title, inline script). */
  children?: string
}

/**
 * What kind of problem a page's data had (`kind` in the build report, docs/ci.md); stable like
 * the error codes: `INVALID_DATA` (a wrongly typed or missing field, repaired or dropped),
 * `UNSAFE_LINK` (a link or file URL removed), `UNSAFE_MARKUP` (a tag or handler removed from rich
 * text), `ELEMENT_SKIPPED` (a content element left out: bad envelope or its template threw),
 * `EMBED_REFUSED` (a video URL that is no player's, shown as a link).
 */
export type DataProblemKind = 'INVALID_DATA' | 'UNSAFE_LINK' | 'UNSAFE_MARKUP' | 'ELEMENT_SKIPPED' | 'EMBED_REFUSED'

/** A problem found in a page's data, repaired or left out; `elementUid` when it is inside a content element. */
export interface DataProblem {
  kind: DataProblemKind
  message: string
  elementUid?: number
  /** A template that threw: where (`templates/content/Text.tsx:12:11`), when the registry could tell. */
  at?: string
}

/** A place in templates/, relative to the project root; line and column from 1. */
export interface TemplateLocation {
  file: string
  line: number
  column: number
}

export interface RenderResult {
  /** Markup of the app root (what `hydrateRoot` takes over), without the document shell. */
  appHtml: string
  head: HeadTag[]
  htmlAttrs: { lang: string; dir: string }
  bodyAttrs: { class: string }
  status: number
  /** Problems found in the data (skipped elements, refused links): listed in the build report. */
  problems: DataProblem[]
  /** Each time a backend layout or content element type the page uses had no template of its own and `Default` stood in. */
  fallbacks?: TemplateFallback[]
}

/** A backend layout or content element type rendered with `Default`: `{ kind: 'content', name: 'textpic' }`. */
export interface TemplateFallback {
  kind: 'layout' | 'content'
  /** As the API sends it (`appearance.backendLayout`, the element's `type`). */
  name: string
}

// ---- What templates/ provides (the registry) -------------------------------------------

export interface LayoutProps {
  /** The page's columns, keyed `colPos0`, `colPos1`, … (always an object). */
  content: PageContent
  page: PageData
}

/** Props of a content element component: envelope fields plus every key of `content` spread. */
export interface ContentElementProps {
  uid: number
  type: string
  appearance: ContentElement['appearance']
  index: number
  element: ContentElement
  [contentKey: string]: unknown
}

export interface HeaderProps {
  navigation: NavEntry[]
  transparent: boolean
  languages: LanguageEntry[]
}

export interface ErrorPageProps {
  error: PageError
}

/** The one map from backend layout and content type to a component; named as nuxt-typo3 names them (names.ts). */
export interface TemplateRegistry {
  /** Keyed by PascalCase backend layout name (`two_columns` -> `TwoColumns`); `Default` is required. */
  layouts: Record<string, ComponentType<LayoutProps>>
  /** Keyed by PascalCase content type (`menu_pages` -> `MenuPages`); `Default` is required. */
  content: Record<string, ComponentType<ContentElementProps>>
  Header: ComponentType<HeaderProps>
  Footer: ComponentType<Record<string, never>>
  ErrorPage: ComponentType<ErrorPageProps>
  /**
   * The site's texts per locale (`templates/texts/<locale>.ts`), read with `useSiteTexts()`. The
   * browser's registry holds the locales loaded so far: the current page's one at least.
   */
  texts?: Readonly<Record<string, unknown>>
  /** Server only: where in templates/ an error was thrown (the registry's source map), when it was thrown there. */
  locate?: (error: unknown) => TemplateLocation | undefined
}

export type { ReactNode }

// ---- The document shell and hydration ---------------------------------------------------

/** URLs of the client assets a page loads (content-hashed, under `/_site/`). */
export interface ClientAssets {
  /** Module scripts, in order. */
  scripts: string[]
  /** Stylesheet URLs, linked. */
  styles: string[]
  /** Stylesheets small enough to be inlined into every page (INLINE_STYLES_MAX_BYTES), as CSS text. */
  inlineStyles?: string[]
  /** Extra `<link rel="modulepreload">` URLs. */
  modulePreloads?: string[]
  /**
   * The browser loads each layout and content element template, the error page and each locale's
   * texts on demand, as its own chunk: per registry key (`TwoColumns`, `Text`, `Default`, `en`), the
   * URLs of that chunk and of the chunks it imports beyond `scripts` and `modulePreloads`. The
   * document shell preloads what its page hydrates with (see `preloadUrls` in src/hydration/plan.ts).
   */
  templateChunks?: TemplateChunks
}

export interface TemplateChunks {
  layouts: Record<string, string[]>
  content: Record<string, string[]>
  texts?: Record<string, string[]>
  ErrorPage?: string[]
  /** The chunk of `site:templates/main` (the loaders of layouts, content elements and ErrorPage): needed before any of them. */
  main?: string[]
  /** The chunk of src/client/islands.tsx: what hydrates the 'use client' content elements of an island page. */
  islands?: string[]
  /** Ids of the templates marked `'use client'` (`content/Form`, `layouts/Shop`, `ErrorPage`, `Header`, `Footer`). */
  client?: string[]
}

/**
 * The JSON embedded in every page (`<script id="__SITE_BOOT__" type="application/json">`)
 * that the browser hydrates from. In a static build `initialData` is left out and
 * `initialDataUrl` points at the once-per-locale file; in preview it is inlined.
 */
export interface BootState {
  /**
   * The version of the client code this page was rendered for (a hash of its assets, the same for every
   * page and for every build with the same templates and engine): nothing per build is in a page. An open
   * tab compares it with `_site/builds/latest.json` and with each payload it loads (src/client/manifest-check.ts,
   * payloads.ts): another version means its code is not the newest, and the next navigation is a full load.
   */
  clientVersion: string
  state: Omit<RenderState, 'initialData'> & { initialData?: InitialData }
  initialDataUrl?: string
  /** Preview only: URL of the server-sent events stream that announces reloads. */
  reloadEventsUrl?: string
  /**
   * How the page's main hydrates, as the server decided it before rendering the document
   * (`decideHydration` in src/hydration/plan.ts, the same decision as the page's modulepreloads):
   * the browser only reads it.
   */
  hydration: BootHydration
}

/**
 * How a page's main hydrates, as the boot JSON carries it: `kept` (the main keeps the server's markup), `full`
 * (the whole main hydrates), or `islands`: each content element marked `'use client'` hydrates on
 * its own in its frame `#c<uid>`; the element itself is the one with that uid in `state.page`.
 */
export type BootHydration = { kind: 'kept' } | { kind: 'full' } | { kind: 'islands'; islands: BootIsland[] }

export interface BootIsland {
  /** The element's uid (its frame is `#c<uid>`; unique on an island page). */
  uid: number
  /** Its position in the list that holds it (as `Column` passes it). */
  index: number
  /** Its registry key after the `Default` fallback: `Text`. */
  template: string
}

/**
 * A page payload (`{path}/_payload.json`): what client navigation renders from. `clientVersion` is the
 * version of the client code it was rendered for (see BootState); `initialDataUrl` names the locale's
 * content-hashed initial data it was built with, so a page is always rendered with the navigation of its own build.
 */
export type PagePayload =
  | { clientVersion: string; locale: string; path: string; status: number; page: PageData; initialDataUrl?: string }
  | { clientVersion: string; locale: string; path: string; redirect: { to: string; statusCode: number } }
