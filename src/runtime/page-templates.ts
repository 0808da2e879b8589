/**
 * Which layout and content element templates a render of a page looks up: what the
 * browser client loads before it hydrates or renders the page (its templates are
 * lazily loaded chunks) and what the document shell preloads. React-free.
 */
import type { PageData } from '../shared/types.js'
import { checkElement, isRecord } from './element.js'
import { pascalCase } from './names.js'

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
