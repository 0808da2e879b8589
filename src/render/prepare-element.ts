/**
 * Content elements at the trust boundary: the envelope is checked
 * (numeric id, string type, object content), then the fields of each type's `content` that
 * templates rely on get their expected shape. Bad elements are skipped and reported.
 */
import { MAX_DATA_DEPTH } from '../shared/constants.js'
import type { ContentElement, ElementAppearance, PageContent } from '../shared/types.js'
import {
  cleanRecord,
  clipped,
  isRecord,
  type Problems,
  prepareFiles,
  prepareLink,
  prepareNav,
  typeName,
} from './prepare-values.js'

const APPEARANCE_KEYS = ['layout', 'frameClass', 'spaceBefore', 'spaceAfter'] as const
/** The envelope fields prepareElement prepares itself; cleanRecord cleans the others. */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set(['id', 'type', 'appearance', 'content'])
/** Shortcut records are elements: prepared as such by shapeContent, not cleaned generically first. */
const SHORTCUT_KEY: ReadonlySet<string> = new Set(['shortcut'])
const COLUMN_RE = /^colPos\d+$/

/** An integer id, also from a numeric string (`"47"`); undefined otherwise. */
export function toId(value: unknown): number | undefined {
  const id = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : undefined
}

const stringList = (value: unknown): string[] | undefined =>
  Array.isArray(value)
    ? value.map((item) => (typeof item === 'string' || typeof item === 'number' ? String(item) : ''))
    : undefined

function prepareAppearance(value: unknown): ElementAppearance {
  const appearance = isRecord(value) ? { ...value } : {}
  for (const key of APPEARANCE_KEYS) {
    if (typeof appearance[key] !== 'string') appearance[key] = ''
  }
  return appearance
}

/** Type-specific shapes that templates expect; everything else was already cleaned generically. */
function shapeContent(
  type: string,
  content: Record<string, unknown>,
  where: string,
  problems: Problems,
  depth: number,
): void {
  if ('headerLink' in content) content.headerLink = prepareLink(content.headerLink, `${where}.headerLink`, problems)
  if ('menu' in content) {
    // menu_categorized_content lists content records ({ uid, header }), not pages.
    if (type === 'menu_categorized_content')
      content.menu = Array.isArray(content.menu) ? content.menu.filter(isRecord) : []
    else content.menu = prepareNav(content.menu, `${where}.menu`, problems)
  }
  if ('media' in content) content.media = prepareFiles(content.media, `${where}.media`, problems)
  if ('gallery' in content && !isRecord(content.gallery)) {
    problems.push(`${where}.gallery: not an object, dropped`)
    delete content.gallery
  }
  if ('shortcut' in content)
    content.shortcut = prepareElements(content.shortcut, `${where}.shortcut`, problems, depth + 1)
  if (type === 'bullets' || type === 'table') {
    const rows = Array.isArray(content.bodytext) ? content.bodytext : undefined
    if (!rows) {
      if (content.bodytext !== undefined && content.bodytext !== '')
        problems.push(`${where}.bodytext: expected a list, dropped`)
      content.bodytext = []
    } else {
      content.bodytext = rows.map((row) =>
        // String() of an object runs its `toString`: an API object with its own `"toString": "x"` key throws.
        Array.isArray(row)
          ? stringList(row)
          : typeof row === 'string'
            ? row
            : typeof row === 'number'
              ? String(row)
              : '',
      )
    }
  }
}

/** One element, or null (reported) when its envelope is unusable. */
function prepareElement(raw: unknown, where: string, problems: Problems, depth = 0): ContentElement | null {
  if (!isRecord(raw)) {
    problems.push(`${where}: content element is not an object, skipped`, 'ELEMENT_SKIPPED')
    return null
  }
  const id = toId(raw.id)
  if (id === undefined) {
    problems.push(`${where}: content element without a numeric id, skipped`, 'ELEMENT_SKIPPED')
    return null
  }
  // From here on, what is wrong is wrong in element `id`: the editor's record to fix.
  const own = problems.forElement(id)
  if (typeof raw.type !== 'string' || raw.type.trim() === '') {
    own.push(`${where} (id ${id}): content element without a type, skipped`, 'ELEMENT_SKIPPED')
    return null
  }
  if (depth >= MAX_DATA_DEPTH / 4) {
    own.push(`${where} (id ${id}): shortcuts nested too deep, skipped`, 'ELEMENT_SKIPPED')
    return null
  }
  const at = `${where} (id ${id}, ${clipped(raw.type)})`
  const { type, appearance, content } = raw
  let body: Record<string, unknown> = {}
  if (isRecord(content)) {
    body = cleanRecord(content, at, own, depth + 2, SHORTCUT_KEY)
    if (content.shortcut !== undefined) body.shortcut = content.shortcut
  } else {
    own.push(`${at}: content is ${typeName(content)}, used {}`)
  }
  shapeContent(type, body, at, own, depth)
  // the envelope's other fields first, then the four prepared here (as the element's JSON lists them)
  const element = cleanRecord(raw, at, own, depth + 1, ENVELOPE_KEYS) as unknown as ContentElement
  element.id = id
  element.type = type
  element.appearance = prepareAppearance(appearance)
  element.content = body
  return element
}

/** A list of elements; a value that is not a list gives `[]` (reported). */
function prepareElements(value: unknown, where: string, problems: Problems, depth = 0): ContentElement[] {
  if (!Array.isArray(value)) {
    problems.push(`${where}: expected a list of content elements, dropped`)
    return []
  }
  return value
    .map((raw, i) => prepareElement(raw, `${where}[${i}]`, problems, depth))
    .filter((el): el is ContentElement => el !== null)
}

/** An element's column, `colPos<n>`, from its `colPos` (read as an id is); undefined without one. */
function columnOf(raw: unknown): string | undefined {
  const n = isRecord(raw) ? toId(raw.colPos) : undefined
  return n !== undefined && n >= 0 ? `colPos${n}` : undefined
}

/**
 * The elements of a page whose content is a flat list (EXT:headless with `doNotGroupByColPos = 1`), grouped into
 * their columns in the list's order; an element that names no column is dropped (reported).
 */
function groupByColumn(list: readonly unknown[], problems: Problems): Record<string, unknown[]> {
  const columns: Record<string, unknown[]> = {}
  list.forEach((raw, i) => {
    const column = columnOf(raw)
    if (column === undefined) {
      problems.push(`content[${i}]: a content element without a colPos in a list of them, dropped`)
      return
    }
    const elements = columns[column] ?? []
    elements.push(raw)
    columns[column] = elements
  })
  return columns
}

/** The page's columns: always an object; columns that are not lists are dropped (reported). */
export function prepareContent(value: unknown, problems: Problems): PageContent {
  if (Array.isArray(value)) return prepareContent(groupByColumn(value, problems), problems)
  if (!isRecord(value)) {
    problems.push(`content is ${typeName(value)}, used {}`)
    return {}
  }
  const content: PageContent = {}
  for (const [key, column] of Object.entries(value)) {
    if (!COLUMN_RE.test(key)) {
      problems.push(`content.${clipped(key)}: not a column name (colPos<n>), dropped`)
      continue
    }
    if (!Array.isArray(column)) {
      problems.push(`content.${clipped(key)}: column is not a list, dropped`)
      continue
    }
    content[key] = prepareElements(column, `content.${key}`, problems)
  }
  return content
}
