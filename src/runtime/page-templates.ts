/**
 * Which templates a render of a page looks up, and which of them the browser needs before it
 * hydrates the page or renders it after a client navigation (each is a lazily loaded chunk):
 * what the client loads and what the document shell preloads. React-free.
 */
import type { RenderState } from '../render/types.js'
import type { PageData } from '../shared/types.js'
import { checkElement, isRecord } from './element.js'
import { pascalCase } from './names.js'
import { localeKey } from './texts.js'

/** Registry keys, before the `Default` fallback: `{ layouts: ['TwoColumns'], content: ['Text', 'Shortcut', 'Image'] }`. */
export interface PageTemplates {
  layouts: string[]
  content: string[]
}

/** The key a lookup of `name` ends at among `available` (own properties only): `name`, else `Default`. */
export const templateKey = (available: object, name: string): string =>
  Object.prototype.hasOwnProperty.call(available, name) ? name : 'Default'

/**
 * The layout of `page` and the type of every content element in its columns, nested ones
 * included (`shortcut` records, or any template's data that carries element envelopes):
 * everything under `page.content` that passes the envelope check counts. No page (an
 * error page without page data): none, ErrorPage renders alone.
 */
export function pageTemplates(page: PageData | null | undefined): PageTemplates {
  if (!isRecord(page)) return { layouts: [], content: [] }
  const content = new Set<string>()
  const pending: unknown[] = [page.content]
  const seen = new Set<object>()
  while (pending.length > 0) {
    const value = pending.pop()
    if (typeof value !== 'object' || value === null || seen.has(value)) continue
    seen.add(value)
    if (!Array.isArray(value)) {
      const check = checkElement(value)
      if (check.ok) content.add(pascalCase(check.element.type))
    }
    for (const item of Array.isArray(value) ? value : Object.values(value)) pending.push(item)
  }
  // As resolveLayout names it.
  const backendLayout = isRecord(page.appearance) ? page.appearance.backendLayout : undefined
  const layout = typeof backendLayout === 'string' && backendLayout !== '' ? pascalCase(backendLayout) : 'Default'
  return { layouts: [layout], content: [...content].sort() }
}

/** The registry keys a build or the browser has (own properties), and the ids of the templates marked `'use client'`. */
export interface TemplateKeys {
  layouts: object
  content: object
  texts?: object | undefined
  /** `layouts/Shop`, `content/Form`, `ErrorPage`. */
  client?: readonly string[] | undefined
}

/** What a render needs loaded, as registry keys after the `Default` fallback. */
export interface TemplateNeeds {
  layouts: string[]
  content: string[]
  errorPage: boolean
  /** The key of `texts` the locale reads (`localeKey`), when there are texts. */
  texts?: string
}

export type TemplateState = Pick<RenderState, 'page' | 'locale' | 'editorPreview'> & { site: { i18n: { default: string } } }

/** The templates the main of `state` renders with: its layout and content elements, or the error page. */
function mainTemplates(page: PageData | null | undefined, keys: TemplateKeys): Omit<TemplateNeeds, 'texts'> {
  if (!page) return { layouts: [], content: [], errorPage: true }
  const needs = pageTemplates(page)
  const keysOf = (available: object, names: string[]) => [...new Set(names.map((name) => templateKey(available, name)))].sort()
  return { layouts: keysOf(keys.layouts, needs.layouts), content: keysOf(keys.content, needs.content), errorPage: false }
}

/**
 * True when a page can hydrate with its main as the server rendered it (no template code for it
 * on first load): not in editor preview, and none of the templates the main renders with (layout,
 * content elements, or the error page) is marked `'use client'`. Client navigation renders it in full.
 */
export function keepsMain(state: TemplateState, keys: TemplateKeys): boolean {
  if (state.editorPreview) return false
  const client = new Set(keys.client ?? [])
  if (client.size === 0) return true
  const main = mainTemplates(state.page, keys)
  return !(
    (main.errorPage && client.has('ErrorPage')) ||
    main.layouts.some((name) => client.has(`layouts/${name}`)) ||
    main.content.some((name) => client.has(`content/${name}`))
  )
}

/**
 * What a render of `state` needs loaded: the locale's texts, and with `main` the templates its main
 * renders with. Hydration passes `main: !keepsMain(…)`, a client navigation `main: true`.
 */
export function templateNeeds(state: TemplateState, keys: TemplateKeys, options: { main: boolean }): TemplateNeeds {
  const main = options.main ? mainTemplates(state.page, keys) : { layouts: [], content: [], errorPage: false }
  const texts = keys.texts ? localeKey(keys.texts, state.locale, state.site.i18n.default) : undefined
  return texts === undefined ? main : { ...main, texts }
}
