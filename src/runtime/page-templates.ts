/**
 * Which templates a render of a page looks up, and which of them the browser needs before it
 * hydrates the page or renders it after a client navigation (each is a lazily loaded chunk):
 * what the client loads and what the document shell preloads. React-free.
 */
import type { BootHydration, RenderState } from '../shared/contract.js'
import type { ContentElement, PageData } from '../shared/types.js'
import { checkElement, isFrameless, isRecord } from './element.js'
import { pascalCase } from './names.js'
import { localeKey } from './texts.js'

/** Registry keys, before the `Default` fallback: `{ layouts: ['TwoColumns'], content: ['Text', 'Shortcut', 'Image'] }`. */
export interface PageTemplates {
  layouts: string[]
  content: string[]
}

/** The key a lookup of `name` ends at among `available` (own properties only): `name`, else `Default`. */
export const templateKey = (available: object, name: string): string =>
  Object.hasOwn(available, name) ? name : 'Default'

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

export type TemplateState = Pick<RenderState, 'page' | 'locale' | 'editorPreview'> & {
  site: { i18n: { default: string } }
}

/** The templates the main of `state` renders with: its layout and content elements, or the error page. */
function mainTemplates(page: PageData | null | undefined, keys: TemplateKeys): Omit<TemplateNeeds, 'texts'> {
  if (!page) return { layouts: [], content: [], errorPage: true }
  const needs = pageTemplates(page)
  const keysOf = (available: object, names: string[]) =>
    [...new Set(names.map((name) => templateKey(available, name)))].sort()
  return {
    layouts: keysOf(keys.layouts, needs.layouts),
    content: keysOf(keys.content, needs.content),
    errorPage: false,
  }
}

/** A content element marked `'use client'` that hydrates on its own, inside its frame (`#c<uid>`). */
export interface Island {
  element: ContentElement
  /** Its position in the list that holds it (as `Column` passes it), 0 when not in a list. */
  index: number
  /** Its registry key after the `Default` fallback: `Text`. */
  template: string
}

/**
 * How a page's main hydrates:
 * - `kept`: none of its templates is marked `'use client'`: the server's markup is kept, no template code loads;
 * - `islands`: only content elements are marked: the markup is kept and each outermost marked element
 *   hydrates on its own, as a React root in its frame `#c<uid>` (see src/client/islands.tsx);
 * - `full`: the whole main hydrates with all its templates: in editor preview, when the layout or the
 *   error page is marked, or when a marked element cannot be an island (no frame, `frameClass: none`;
 *   or its uid renders more than once on the page, so its frame is not one container).
 */
export type MainHydration = { kind: 'kept' } | { kind: 'islands'; islands: Island[] } | { kind: 'full' }

/** The outermost elements under `value` whose template key (after the Default fallback) is marked; their uids' counts. */
function clientElements(
  value: unknown,
  isClient: (key: string) => boolean,
): { found: Island[]; uids: Map<number, number> } {
  const found: Island[] = []
  const uids = new Map<number, number>()
  const seen = new Set<object>()
  const visit = (item: unknown, index: number, inside: boolean) => {
    if (typeof item !== 'object' || item === null || seen.has(item)) return
    seen.add(item)
    let within = inside
    if (!Array.isArray(item)) {
      const check = checkElement(item)
      if (check.ok) {
        const element = check.element
        uids.set(element.id, (uids.get(element.id) ?? 0) + 1)
        const template = pascalCase(element.type)
        if (!inside && isClient(template)) {
          found.push({ element, index, template })
          within = true
        }
      }
    }
    if (Array.isArray(item)) for (const [position, child] of item.entries()) visit(child, position, within)
    else for (const child of Object.values(item)) visit(child, 0, within)
  }
  visit(value, 0, false)
  return { found, uids }
}

export function mainHydration(state: TemplateState, keys: TemplateKeys): MainHydration {
  if (state.editorPreview) return { kind: 'full' }
  const client = new Set(keys.client ?? [])
  if (client.size === 0) return { kind: 'kept' }
  const main = mainTemplates(state.page, keys)
  if ((main.errorPage && client.has('ErrorPage')) || main.layouts.some((name) => client.has(`layouts/${name}`)))
    return { kind: 'full' }
  if (!main.content.some((name) => client.has(`content/${name}`))) return { kind: 'kept' }
  const { found, uids } = clientElements(state.page?.content, (name) =>
    client.has(`content/${templateKey(keys.content, name)}`),
  )
  const islands = found.map((island) => ({ ...island, template: templateKey(keys.content, island.template) }))
  if (islands.some(({ element }) => isFrameless(element.appearance) || (uids.get(element.id) ?? 0) > 1))
    return { kind: 'full' }
  return { kind: 'islands', islands }
}

/**
 * `mainHydration` for the boot JSON (islands by uid: the elements stay in `state.page`). No keys (a
 * build or preview without the client's template chunks, so no word of what is marked): `full`.
 */
export function bootHydration(state: TemplateState, keys: TemplateKeys | undefined): BootHydration {
  if (!keys) return { kind: 'full' }
  const hydration = mainHydration(state, keys)
  if (hydration.kind !== 'islands') return hydration
  return {
    kind: 'islands',
    islands: hydration.islands.map(({ element, index, template }) => ({ uid: element.id, index, template })),
  }
}

/**
 * True when a page can hydrate with its main as the server rendered it (no template code for it on
 * first load but that of its islands, see `mainHydration`). Client navigation renders it in full.
 */
export const keepsMain = (state: TemplateState, keys: TemplateKeys): boolean =>
  mainHydration(state, keys).kind !== 'full'

/**
 * What a render of `state` needs loaded: the locale's texts, and with `main` the templates its main
 * renders with. Hydration passes `main` when its boot says `full` (`bootHydration`), a client navigation `main: true`.
 */
export function templateNeeds(state: TemplateState, keys: TemplateKeys, options: { main: boolean }): TemplateNeeds {
  const main = options.main ? mainTemplates(state.page, keys) : { layouts: [], content: [], errorPage: false }
  const texts = keys.texts ? localeKey(keys.texts, state.locale, state.site.i18n.default) : undefined
  return texts === undefined ? main : { ...main, texts }
}
