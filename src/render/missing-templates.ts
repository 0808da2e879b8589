/**
 * Backend layouts and content element types the API sends that have no template of their own
 * (`Default` stood in, see RenderResult's `fallbacks`), gathered over many pages: how often and
 * on which page first. One note each, for the build report and preview's terminal.
 */
import { TEMPLATE_LAYOUT } from '../hydration/manifest.js'
import { pascalCase } from '../runtime/names.js'
import type { TemplateFallback } from '../shared/contract.js'

export interface MissingTemplate extends TemplateFallback {
  /** The template file that would be used: `templates/content/Textpic.tsx`; '' when no file name can match. */
  file: string
  /** Content elements (kind `content`) or pages (kind `layout`) rendered with `Default`. */
  count: number
  /** The first page in path order that had it. */
  firstPath: string
}

export interface MissingTemplates {
  /** Records a page's fallbacks; returns the ones not seen before (preview prints each once). */
  add(path: string, fallbacks: readonly TemplateFallback[]): MissingTemplate[]
  /** Every one recorded, layouts first, then by name. */
  list(): MissingTemplate[]
  /** Distinct names left out past the cap (a hostile API can send a new type per element). */
  readonly dropped: number
}

/** Distinct layouts and types tracked; beyond that only counted: a long list helps nobody. */
const MAX_MISSING_TEMPLATES = 100
/** Longest name quoted (names come from the API). */
const MAX_NAME_LENGTH = 80

// What scanTemplates registers (its TEMPLATE_FILE_RE without the extension).
const TEMPLATE_NAME_RE = /^[A-Z][A-Za-z0-9]*$/

const keyOf = (f: TemplateFallback): string => `${f.kind}\u0000${f.name}`

/** `{ kind: 'content', name: 'text_media' }` -> `templates/content/TextMedia.tsx` */
export function templateFileFor(fallback: TemplateFallback): string {
  const name = pascalCase(fallback.name)
  if (!TEMPLATE_NAME_RE.test(name) || name.length > MAX_NAME_LENGTH) return ''
  return `${fallback.kind === 'layout' ? TEMPLATE_LAYOUT.layouts : TEMPLATE_LAYOUT.content}/${name}.tsx`
}

export function createMissingTemplates(): MissingTemplates {
  const found = new Map<string, MissingTemplate>()
  let dropped = 0
  return {
    add(path, fallbacks) {
      const added: MissingTemplate[] = []
      for (const fallback of fallbacks) {
        const known = found.get(keyOf(fallback))
        if (known) {
          known.count += 1
          if (path < known.firstPath) known.firstPath = path
        } else if (found.size < MAX_MISSING_TEMPLATES) {
          const entry = { ...fallback, file: templateFileFor(fallback), count: 1, firstPath: path }
          found.set(keyOf(fallback), entry)
          added.push(entry)
        } else dropped += 1
      }
      return added
    },
    list() {
      return [...found.values()].sort((a, b) =>
        a.kind !== b.kind ? (a.kind === 'layout' ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
      )
    },
    get dropped() {
      return dropped
    },
  }
}

const quote = (name: string): string =>
  JSON.stringify(name.length > MAX_NAME_LENGTH ? `${name.slice(0, MAX_NAME_LENGTH)}…` : name)

/**
 * One line for people: `content element type "textpic" has no template (add templates/content/Textpic.tsx):
 * 12 elements rendered with Default, first on /about-us`. Without `count`, the first sighting (preview).
 */
export function describeMissingTemplate(missing: MissingTemplate, options: { count?: boolean } = {}): string {
  const what =
    missing.kind === 'layout' ? `backend layout ${quote(missing.name)}` : `content element type ${quote(missing.name)}`
  const fix = missing.file ? `add ${missing.file}` : 'no template file name can match it'
  const unit = missing.kind === 'layout' ? 'page' : 'element'
  const how =
    options.count === false
      ? `rendered with Default on ${missing.firstPath}`
      : `${missing.count} ${unit}${missing.count === 1 ? '' : 's'} rendered with Default, first on ${missing.firstPath}`
  return `${what} has no template (${fix}): ${how}`
}

/** The build report's notes: one per missing template, and one for those past the cap. */
export function missingTemplateNotes(missing: MissingTemplates): string[] {
  const notes = missing.list().map((m) => describeMissingTemplate(m))
  if (missing.dropped > 0)
    notes.push(`${missing.dropped} more uses of layouts or content element types without a template (not listed)`)
  return notes
}
