/**
 * `site/runtime`: what server render and browser share, and all that templates/ may
 * import from the engine. No `node:` imports and no DOM access at module level.
 */
export { SiteApp, topNavigation, LOADING_BAR_ID, MAIN_ID, type SiteAppProps } from './SiteApp.js'
export {
  SiteContext,
  ElementContext,
  useSite,
  useRegistry,
  useReportProblem,
  useLocaleTexts,
  useSiteTexts,
  useHomePath,
  useElement,
  type SiteInfo,
  type ElementInfo,
  type RenderTrace,
  type SiteContextValue,
} from './context.js'
export { Column, ContentColumn, hasColumn, type ContentColumnProps } from './Column.js'
export { ContentElement, type ContentElementRenderProps } from './ContentElement.js'
export { Frame, EditLink, ElementRoot, type ElementRootProps } from './Frame.js'
export { RichText, type RichTextProps } from './RichText.js'
export { SafeLink, resolveHref, linkText, type SafeLinkProps, type ResolvedHref } from './SafeLink.js'
export { Media, Image, isFile, isSafeSrc, fileProps, type ImageProps } from './Media.js'
export { Heading, headingLevel, HIDDEN_HEADER_LAYOUT, type HeadingProps } from './Heading.js'
export { Gallery, galleryRows, type GalleryProps } from './Gallery.js'
// Head tags (./head.js) are not exported here: only the render core and client navigation use them.
export { getHtmlAttrs, currentLanguage } from './head.js'
export { pageLanguages, siteLanguages } from './languages.js'
export { checkElement, frameClassName, isFrameless, isRecord, cx, classToken, type ElementCheck } from './element.js'
export { pascalCase, resolveLayout, resolveContent } from './names.js'
export { pickLocale, localeKey } from './texts.js'
export { ENGINE_TEXTS, type EngineTexts } from './engine-texts.js'
export { localeHome, withLocale, stripLocale, classifyLink, isSafeHref } from '../shared/url.js'
export type {
  ContentElementProps,
  LayoutProps,
  HeaderProps,
  ErrorPageProps,
  TemplateRegistry,
  RenderState,
  PageError,
} from '../render/types.js'
export type { ContentElement as ContentElementData, FileRef, LanguageEntry, LinkResult, NavEntry, PageData, InitialData, ContextMenu } from '../shared/types.js'
