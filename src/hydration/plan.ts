/**
 * The hydration plan of a page, decided once by the server (build or preview) before the
 * document is rendered, and read by the browser: which templates a render of the page looks up,
 * how its main hydrates (`decideHydration`), what the document preloads (`preloadUrls`) and what
 * the client loads before it hydrates or renders a page (`templateNeeds`). Pure, React-free and
 * browser-safe: src/client imports it as the server does.
 */
import { checkElement, isFrameless } from '../runtime/element.js'
import { pascalCase } from '../runtime/names.js'
import { localeKey } from '../runtime/texts.js'
import type { BootHydration, ClientAssets, RenderState } from '../shared/contract.js'
import type { ContentElement, PageData } from '../shared/types.js'
import { isRecord } from '../shared/values.js'

/** Registry keys, before the `Default` fallback: `{ layouts: ['TwoColumns'], content: ['Text', 'Shortcut', 'Image'] }`. */
export interface PageTemplates {
  layouts: string[]
  content: string[]
}

/** The key a lookup of `name` ends at among `available` (own properties only): `name`, else `Default`. */
const templateKey = (available: object, name: string): string => (Object.hasOwn(available, name) ? name : 'Default')

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

/** A content element marked `'use client'` found on a page, with where it sits. */
interface ClientElement {
  element: ContentElement
  /** Its position in the list that holds it (as `Column` passes it), 0 when not in a list. */
  index: number
  /** Its registry key after the `Default` fallback: `Text`. */
  template: string
}

/** The outermost elements under `value` whose template key (after the Default fallback) is marked; their uids' counts. */
function clientElements(
  value: unknown,
  isClient: (key: string) => boolean,
): { found: ClientElement[]; uids: Map<number, number> } {
  const found: ClientElement[] = []
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

/**
 * How a page's main hydrates, as the boot JSON carries it (islands by uid: the elements stay in `state.page`):
 * - `kept`: none of its templates is marked `'use client'`: the server's markup is kept, no template code loads;
 * - `islands`: only content elements are marked: the markup is kept and each outermost marked element
 *   hydrates on its own, as a React root in its frame `#c<uid>` (see src/client/islands.tsx);
 * - `full`: the whole main hydrates with all its templates: in editor preview, when the layout or the
 *   error page is marked, when a marked element cannot be an island (no frame, `frameClass: none`;
 *   or its uid renders more than once on the page, so its frame is not one container), and when
 *   there are no template keys (a build or preview without the client's template chunks).
 */
export function decideHydration(state: TemplateState, keys: TemplateKeys | undefined): BootHydration {
  if (!keys || state.editorPreview) return { kind: 'full' }
  const client = new Set(keys.client ?? [])
  if (client.size === 0) return { kind: 'kept' }
  const main = mainTemplates(state.page, keys)
  if ((main.errorPage && client.has('ErrorPage')) || main.layouts.some((name) => client.has(`layouts/${name}`)))
    return { kind: 'full' }
  if (!main.content.some((name) => client.has(`content/${name}`))) return { kind: 'kept' }
  const { found, uids } = clientElements(state.page?.content, (name) =>
    client.has(`content/${templateKey(keys.content, name)}`),
  )
  if (found.some(({ element }) => isFrameless(element.appearance) || (uids.get(element.id) ?? 0) > 1))
    return { kind: 'full' }
  return {
    kind: 'islands',
    islands: found.map(({ element, index, template }) => ({
      uid: element.id,
      index,
      template: templateKey(keys.content, template),
    })),
  }
}

/**
 * When the browser loads a page's client (see `clientLoader` in src/render/document.ts):
 * - `intent`: at the visitor's first action (a pointer over, moving or pressed on the page, a touch, a key, a
 *   focus, a wheel): a static page whose main keeps the server's markup (`kept`) and whose Header and Footer are not
 *   marked `'use client'`. Nothing on it needs code before the visitor acts: its links are links, its popovers
 *   the browser's, its page view and service worker the loader's own. React is evaluated for the visitor who
 *   goes on to use the page (client navigation), not for one who only reads it.
 * - `paint`: once the page has painted: any page that hydrates template code (`full`, `islands`, a marked Header
 *   or Footer), and every page in preview (its reload stream, the editor's widgets).
 */
export type ClientStart = 'paint' | 'intent'

export function decideClientStart(
  mode: RenderState['mode'],
  keys: TemplateKeys | undefined,
  hydration: BootHydration,
): ClientStart {
  if (!keys || mode !== 'static' || hydration.kind !== 'kept') return 'paint'
  const client = keys.client ?? []
  return client.includes('Header') || client.includes('Footer') ? 'paint' : 'intent'
}

/**
 * What a render of `state` needs loaded: the locale's texts, and with `main` the templates its main
 * renders with. Hydration passes `main` when its boot's `hydration` says `full` (`decideHydration`); a client
 * navigation passes `main: true`.
 */
export function templateNeeds(state: TemplateState, keys: TemplateKeys, options: { main: boolean }): TemplateNeeds {
  const main = options.main ? mainTemplates(state.page, keys) : { layouts: [], content: [], errorPage: false }
  const texts = keys.texts ? localeKey(keys.texts, state.locale, state.site.i18n.default) : undefined
  return texts === undefined ? main : { ...main, texts }
}

/**
 * The modulepreloads of a page: the entry's preloads, then the chunks the client imports before it
 * hydrates this page as `hydration` says: its locale's texts, and the templates of its main unless
 * the main keeps the server's markup (an island page: its islands' content elements and the
 * islands code). Each URL once, in that order.
 */
export function preloadUrls(assets: ClientAssets, state: TemplateState, hydration: BootHydration): string[] {
  const urls = new Set(assets.modulePreloads ?? [])
  const chunks = assets.templateChunks
  if (!chunks) return [...urls]
  const main = hydration.kind === 'full'
  const needs = templateNeeds(state, chunks, { main })
  const add = (list: readonly string[] | undefined) => {
    for (const url of list ?? []) urls.add(url)
  }
  if (main) add(chunks.main)
  for (const name of needs.layouts) add(chunks.layouts[name])
  for (const name of needs.content) add(chunks.content[name])
  if (needs.errorPage) add(chunks.ErrorPage)
  if (needs.texts !== undefined) add(chunks.texts?.[needs.texts])
  if (hydration.kind === 'islands' && hydration.islands.length > 0) {
    add(chunks.islands)
    for (const island of hydration.islands) add(chunks.content[island.template])
  }
  return [...urls]
}
