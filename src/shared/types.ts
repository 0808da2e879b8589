/**
 * The shapes the content API (TYPO3 EXT:headless, docs/api-contract.md) sends, with the project's own keys.
 * Everything from the API is untrusted: fields are typed as EXT:headless sends them,
 * and the render code still checks them before use.
 */

export type Flag = 0 | 1 | boolean

/** A typolink result (EXT:headless). Link fields are `''` when no link is set. */
export interface LinkResult {
  href: string
  target?: string | null
  class?: string | null
  title?: string | null
  linkText?: string
  additionalAttributes?: Record<string, string> | unknown[]
}

/** A file reference in EXT:headless's legacy shape. */
export interface FileRef {
  publicUrl: string
  properties?: {
    title?: string | null
    alternative?: string | null
    description?: string | null
    link?: string | null
    mimeType?: string
    type?: string
    filename?: string
    originalUrl?: string
    size?: string
    dimensions?: { width: number; height: number }
    cropDimensions?: { width: number; height: number }
    extension?: string
    [key: string]: unknown
  }
  /** Set by a build that took the file into its output (`media: 'copy' | 'optimize'`); never by the API. */
  local?: LocalMedia
}

/**
 * A CMS file in the build's output: `publicUrl` then names the copy (`/_site/media/<hash>/<name>`); an image
 * has its size, and under `'optimize'` its variants, each `${base}-${width}w.${format}` (the last format is the
 * `<img>` fallback). Templates read it through `site/runtime`'s Image, which checks it first.
 */
export interface LocalMedia {
  width?: number
  height?: number
  variants?: { base: string; widths: number[]; formats: string[] }
}

/** A navigation or menu entry (EXT:headless; `buttonLabel` is project-specific). */
export interface NavEntry {
  title: string
  link: string
  target?: string
  active?: Flag
  current?: Flag
  spacer?: Flag
  hasSubpages?: Flag
  children?: NavEntry[]
  buttonLabel?: string
  [key: string]: unknown
}

/** One language of a page or of the site (`i18n`). */
export interface LanguageEntry {
  languageId: number
  locale?: string
  title?: string
  navigationTitle: string
  twoLetterIsoCode: string
  hreflang?: string
  direction?: 'ltr' | 'rtl' | string | null
  flag?: string
  link: string
  active: Flag
  current?: Flag
  available: Flag
}

/** The appearance block of a content element. */
export interface ElementAppearance {
  layout?: string
  frameClass?: string
  spaceBefore?: string
  spaceAfter?: string
  [key: string]: unknown
}

/** A content element envelope; `content` depends on `type` (the TYPO3 CType). */
export interface ContentElement<C = Record<string, unknown>> {
  id: number
  type: string
  colPos?: number
  categories?: string
  appearance?: ElementAppearance
  content: C
  [key: string]: unknown
}

/** Columns of a page: `colPos0`, `colPos1`, ... (an empty page sends `{}`). */
export type PageContent = Record<string, ContentElement[]>

export interface PageMeta {
  title?: string
  subtitle?: string
  abstract?: string
  description?: string
  keywords?: string
  canonical?: '' | LinkResult | string
  robots?: { noIndex?: boolean; noFollow?: boolean }
  author?: string
  ogTitle?: string
  ogDescription?: string
  ogImage?: FileRef | null
  twitterTitle?: string
  twitterDescription?: string
  twitterCard?: string
  twitterImage?: FileRef | null
  [key: string]: unknown
}

/** The `seo` block of headless 4.x. */
export interface PageSeo {
  title?: string | null
  meta?: Array<{ name?: string; property?: string; 'http-equiv'?: string; content: string }>
  link?: Array<{ rel: string; href: string; hreflang?: string }>
  htmlAttrs?: { lang?: string; dir?: string | null; [attr: string]: string | null | undefined }
  bodyAttrs?: { class?: string; [attr: string]: string | undefined }
}

/** The page's context menu (project-specific: not an EXT:headless field). */
export interface ContextMenu {
  navigation?: NavEntry[]
  additionalLink?: LinkResult | NavEntry | ''
  iconButtons?: Array<NavEntry & { icon?: string }>
  iconButtonsText?: string
}

/** A page (the answer to a page request). */
export interface PageData {
  id: number
  type?: string
  slug?: string
  media?: FileRef[]
  seo?: PageSeo
  meta: PageMeta
  categories?: string
  breadcrumbs?: NavEntry[]
  appearance: { layout?: string; backendLayout?: string; headerTransparent?: Flag; [key: string]: unknown }
  content: PageContent
  i18n?: LanguageEntry[]
  contextMenu?: ContextMenu
  [key: string]: unknown
}

/** A redirect answer (a TYPO3 redirect record): sent with HTTP 200 instead of a page. */
export interface RedirectData {
  redirectUrl: string
  statusCode: number
}

/** Initial data, fetched once per locale: EXT:headless's navigation and languages, and the project's own keys. */
export interface InitialData {
  navigation: NavEntry[]
  featuredNavigation?: NavEntry[]
  minorNavigation?: NavEntry[]
  socialMenu?: NavEntry[]
  footerNavigation?: NavEntry[]
  footerContactData?: ContentElement<{ header?: string; bodytext?: string; items?: unknown[] }>
  i18n: LanguageEntry[]
  backendEditor?: { record: string; page?: string }
  [key: string]: unknown
}
