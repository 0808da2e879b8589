/**
 * `typo3-headless-site/runtime`: what server render and browser share, and all that templates/ may
 * import from the engine. No `node:` imports and no DOM access at module level.
 */

export type {
  ContentElementProps,
  ErrorPageProps,
  HeaderProps,
  LayoutProps,
  PageError,
  RenderState,
  TemplateRegistry,
} from '../shared/contract.js'
export { classifyLink, isFilePath, isSafeHref, type LinkKind } from '../shared/links.js'
export type {
  ContentElement as ContentElementData,
  ContextMenu,
  FileRef,
  InitialData,
  LanguageEntry,
  LinkResult,
  NavEntry,
  PageData,
} from '../shared/types.js'
export { localeHome, stripLocale, withLocale } from '../shared/url.js'
export { Column, ContentColumn, type ContentColumnProps, hasColumn } from './Column.js'
export { ContentElement, type ContentElementRenderProps } from './ContentElement.js'
export {
  ElementContext,
  type ElementInfo,
  type RenderTrace,
  SiteContext,
  type SiteContextValue,
  type SiteInfo,
  useElement,
  useHomePath,
  useLocaleTexts,
  useRegistry,
  useReportProblem,
  useSite,
  useSiteTexts,
} from './context.js'
export { checkElement, classToken, cx, type ElementCheck, frameClassName, isFrameless, isRecord } from './element.js'
export { ENGINE_TEXTS, type EngineTexts } from './engine-texts.js'
export { EditLink, ElementRoot, type ElementRootProps, Frame } from './Frame.js'
export { Gallery, type GalleryProps, galleryRows, gallerySizes } from './Gallery.js'
export { Heading, type HeadingProps, HIDDEN_HEADER_LAYOUT, headingLevel } from './Heading.js'
// Head tags (./head.js) are not exported here: only the render core and client navigation use them.
export { currentLanguage, getHtmlAttrs } from './head.js'
export { pageLanguages, siteLanguages } from './languages.js'
export {
  DEFAULT_IMAGE_SIZES,
  fileProps,
  Image,
  type ImageProps,
  isFile,
  isSafeSrc,
  Media,
  variantsOf,
} from './Media.js'
export { pascalCase, resolveContent, resolveLayout } from './names.js'
export { RichText, type RichTextProps } from './RichText.js'
export { linkText, type ResolvedHref, resolveHref, SafeLink, type SafeLinkProps } from './SafeLink.js'
export { LOADING_BAR_ID, MAIN_ID, SiteApp, type SiteAppProps, topNavigation } from './SiteApp.js'
export { localeKey, pickLocale } from './texts.js'
