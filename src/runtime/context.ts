/**
 * The one React context of a render: state, registry and the problem list.
 * A fresh value is made per render (no module state): the server collects
 * problems into it, the browser passes a throwaway array.
 */
import { createContext, useContext } from 'react'
import type {
  DataProblem,
  DataProblemKind,
  RenderState,
  TemplateFallback,
  TemplateRegistry,
} from '../shared/contract.js'
import { RUNTIME_MODULE } from '../shared/modules.js'
import type { ContentElement } from '../shared/types.js'
import { localeHome } from '../shared/url.js'
import { localeKey, pickLocale } from './texts.js'

/** Server only: lets renderPage find the element whose template threw, and skip it on the next attempt. */
export interface RenderTrace {
  /** Elements whose subtree is being rendered, innermost last. */
  stack: ContentElement[]
  /** Uids of elements not to render. */
  skip: ReadonlySet<number>
  /** Layouts and content element types rendered with `Default`, once per use (for the build report). */
  fallbacks: TemplateFallback[]
  /** Set to find the elements whose subtree suspends (an async component): each renders in a Suspense boundary whose fallback adds it here. */
  suspended?: ContentElement[]
}

/** What templates see through `useSite()`: the render state, `debug` only ever true in preview. */
export type SiteInfo = Readonly<RenderState>

export interface SiteContextValue {
  site: SiteInfo
  registry: TemplateRegistry
  problems: DataProblem[]
  trace?: RenderTrace
}

export const SiteContext = createContext<SiteContextValue | null>(null)

export function useSiteContext(): SiteContextValue {
  const value = useContext(SiteContext)
  if (!value) throw new Error(`${RUNTIME_MODULE}: a template was rendered outside <SiteApp>`)
  return value
}

/** The current render state: locale, path, page, initialData, site, mode, editorPreview, debug, status, error. */
export const useSite = (): SiteInfo => useSiteContext().site

export const useRegistry = (): TemplateRegistry => useSiteContext().registry

/**
 * Returns a function that records a data problem for the build report (never throws), filed under
 * the content element being rendered, if any. `kind` is `INVALID_DATA` unless told.
 */
export function useReportProblem(): (message: string, kind?: DataProblemKind) => void {
  const { problems } = useSiteContext()
  const elementUid = useContext(ElementContext)?.element.id
  return (message, kind = 'INVALID_DATA') => {
    problems.push(elementUid === undefined ? { kind, message } : { kind, message, elementUid })
  }
}

/**
 * Localised labels from a per-locale table, e.g. `useLocaleTexts({ en: {...}, pl: {...} })`.
 * Falls back to the language part of the locale, the default locale (or its language part), then `en`.
 */
export function useLocaleTexts<T>(table: Readonly<Record<string, T>>): T {
  const site = useSite()
  return pickLocale(table, site.locale, site.site.i18n.default)
}

/**
 * The current locale's texts from `templates/texts/<locale>.ts` (the registry's `texts`), with
 * `useLocaleTexts`'s fallback. Typed by the caller: `useSiteTexts<SiteTexts>()`.
 */
export function useSiteTexts<T>(): T {
  const { site, registry } = useSiteContext()
  const texts = registry.texts ?? {}
  const key = localeKey(texts, site.locale, site.site.i18n.default)
  if (key === undefined) throw new Error(`${RUNTIME_MODULE}: useSiteTexts() needs templates/texts/<locale>.ts`)
  return texts[key] as T
}

/** Home path of the current locale: `/`, `/pl`, `/de`. */
export function useHomePath(): string {
  const site = useSite()
  return localeHome(site.locale, site.site.i18n)
}

/** The element being rendered, for components deep inside a content element. */
export interface ElementInfo {
  element: ContentElement
  index: number
  /** `frameClass` is `none`: no frame, the element's own root carries `id="c<uid>"` (use `ElementRoot`). */
  frameless: boolean
}

export const ElementContext = createContext<ElementInfo | null>(null)

export const useElement = (): ElementInfo | null => useContext(ElementContext)
