/**
 * templates/ read once into a manifest (Node only): which layouts, content elements, texts
 * and single templates a project has, which of them are marked `'use client'`, and hints
 * about unmarked templates that look interactive. Every later step (the registry modules,
 * the browser bundle, its chunk plan, the Node registry) works from this one reading.
 */
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { basename, dirname, join, relative } from 'node:path'
import { SiteError } from '../errors.js'
import { pascalCase } from '../runtime/names.js'
import { localeKey } from '../runtime/texts.js'

/** Where templates live under a project root. */
export const TEMPLATE_LAYOUT = {
  dir: 'templates',
  layouts: 'templates/layouts',
  content: 'templates/content',
  /** Per-locale texts, `templates/texts/<locale>.ts` (optional). */
  texts: 'templates/texts',
  singles: ['Header', 'Footer', 'ErrorPage'],
} as const

export type SingleTemplate = (typeof TEMPLATE_LAYOUT.singles)[number]

export interface TemplateFile {
  /** Registry key: the file name without extension (`TwoColumns`, `Text`, `pl`). */
  name: string
  /** Absolute file. */
  file: string
}

export interface TemplateManifest {
  root: string
  layouts: TemplateFile[]
  content: TemplateFile[]
  /** `templates/texts/<locale>.ts`, by locale. */
  texts: TemplateFile[]
  singles: Record<SingleTemplate, string>
  /** Ids of the templates marked `'use client'`: `layouts/Shop`, `content/Form`, `ErrorPage`, `Header`, `Footer`. */
  client: string[]
  /**
   * One line per layout or content element file whose name is not a template's, and per unmarked template whose own
   * source uses hooks or event handlers (for the build report).
   */
  hints: string[]
}

const TEMPLATE_FILE_RE = /^([A-Z][A-Za-z0-9]*)\.(tsx|jsx|ts|js)$/
const TEXTS_FILE_RE = /^([a-z]{2,3}(?:-[A-Za-z0-9]{1,8})*)\.(ts|js|json)$/

// A component file without a dot in its name (`menu_pages.tsx`, not `Text.stories.tsx`): meant as a template when in
// layouts/ or content/. A `.ts` or `.js` file beside them (`utils.ts`) is taken for a helper module.
const COMPONENT_FILE_RE = /^([^.]+)\.(tsx|jsx)$/

/** The files of `dir` whose name matches `pattern`; a module whose name does not is added to `misnamed`, when given. */
async function listFiles(dir: string, pattern: RegExp, misnamed?: string[]): Promise<TemplateFile[]> {
  const names = existsSync(dir) ? await readdir(dir) : []
  const seen = new Map<string, string>()
  for (const name of names.sort()) {
    const match = pattern.exec(name)
    if (match?.[1] && !seen.has(match[1])) seen.set(match[1], join(dir, name))
    else if (!match && COMPONENT_FILE_RE.test(name)) misnamed?.push(join(dir, name))
  }
  return [...seen].map(([name, file]) => ({ name, file }))
}

/**
 * A layout or content element file no name can reach (`menu_pages.tsx` for type `menu_pages`) is silently unused
 * otherwise: the note says the name it wants, or that the file of that name is the template, or what a name begins with.
 */
function misnamedNote(root: string, file: string, templates: readonly TemplateFile[]): string {
  const [, stem = '', extension = ''] = COMPONENT_FILE_RE.exec(basename(file)) ?? []
  const name = pascalCase(stem)
  const wanted = `${name}.${extension}`
  // the template of that name in any extension (`TwoColumns.tsx` for `two_columns.jsx`), as listed: a file system
  // that ignores case finds `Textmedia.tsx` for `textmedia.tsx` itself
  const template = templates.find((t) => t.name === name && dirname(t.file) === dirname(file))
  const why = !TEMPLATE_FILE_RE.test(wanted)
    ? 'a template file is named in PascalCase, beginning with a capital letter'
    : template
      ? `${basename(template.file)} beside it is the template of that name`
      : `a template file is named in PascalCase (rename it ${wanted})`
  return `${relative(root, file).split('\\').join('/')} is not used: ${why}`
}

// Whitespace, comments and directives (`'use strict';`) before the code of a module.
const PROLOGUE_ITEM_RE = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|(['"])(use [^'"\n]*)\1\s*;?)/

/**
 * True when a template's source starts with the `'use client'` directive: it needs the browser
 * (state, effects, event handlers), so a page that renders it hydrates it. Without it a template
 * is markup only: the browser keeps what the server rendered until a client navigation.
 */
export function isClientTemplate(source: string): boolean {
  let rest = source.startsWith('\ufeff') ? source.slice(1) : source
  for (let match = PROLOGUE_ITEM_RE.exec(rest); match; match = PROLOGUE_ITEM_RE.exec(rest)) {
    if (match[2] === 'use client') return true
    rest = rest.slice(match[0].length)
  }
  return false
}

// React hooks and JSX event handlers: what only does something in the browser.
const BROWSER_CODE_RE =
  /\b(use(?:State|Reducer|Effect|LayoutEffect|InsertionEffect|Ref|Transition|ActionState|Optimistic|SyncExternalStore|ImperativeHandle))\s*\(|\s(on[A-Z][A-Za-z]*)\s*=\s*\{/g

/** Hooks and event handler props a template's own source uses: `['useState', 'onClick']`. A hint, not a parse. */
export function browserCodeIn(source: string): string[] {
  return [...new Set([...source.matchAll(BROWSER_CODE_RE)].map((match) => match[1] ?? match[2] ?? ''))]
}

/**
 * Reads templates/ under `root`: every file listed, every layout, content element and error
 * page read once for `'use client'` (and the hints). Throws TEMPLATES_INVALID naming the
 * required files that are missing.
 */
export async function scanTemplates(root: string): Promise<TemplateManifest> {
  const misnamed: string[] = []
  const [layouts, content, texts, top] = await Promise.all([
    listFiles(join(root, TEMPLATE_LAYOUT.layouts), TEMPLATE_FILE_RE, misnamed),
    listFiles(join(root, TEMPLATE_LAYOUT.content), TEMPLATE_FILE_RE, misnamed),
    listFiles(join(root, TEMPLATE_LAYOUT.texts), TEXTS_FILE_RE),
    listFiles(join(root, TEMPLATE_LAYOUT.dir), TEMPLATE_FILE_RE),
  ])
  const single = (name: string) => top.find((f) => f.name === name)?.file
  const missing = [
    ...(layouts.some((l) => l.name === 'Default') ? [] : [`${TEMPLATE_LAYOUT.layouts}/Default.tsx`]),
    ...(content.some((c) => c.name === 'Default') ? [] : [`${TEMPLATE_LAYOUT.content}/Default.tsx`]),
    ...TEMPLATE_LAYOUT.singles.filter((name) => !single(name)).map((name) => `${TEMPLATE_LAYOUT.dir}/${name}.tsx`),
  ]
  if (missing.length > 0) {
    throw new SiteError('TEMPLATES_INVALID', `Templates are incomplete under ${root}: missing ${missing.join(', ')}`, {
      hint: 'A site needs a Default layout, a Default content element, Header, Footer and ErrorPage.',
    })
  }
  const singles = Object.fromEntries(TEMPLATE_LAYOUT.singles.map((name) => [name, single(name)!])) as Record<
    SingleTemplate,
    string
  >
  const { client, hints } = await inspect(root, [
    ...layouts.map((l) => ({ id: `layouts/${l.name}`, file: l.file })),
    ...content.map((c) => ({ id: `content/${c.name}`, file: c.file })),
    { id: 'ErrorPage', file: singles.ErrorPage },
    // Header and Footer hydrate on every page; marked, a page loads its client once painted, not at the visitor's first action.
    { id: 'Header', file: singles.Header, unmarked: HYDRATES_ON_INTENT, followsIntent: true },
    { id: 'Footer', file: singles.Footer, unmarked: HYDRATES_ON_INTENT, followsIntent: true },
  ])
  return {
    root,
    layouts,
    content,
    texts,
    singles,
    client,
    hints: [...misnamed.sort().map((file) => misnamedNote(root, file, [...layouts, ...content])), ...hints],
  }
}

const KEEPS_SERVER_MARKUP = 'on a first visit the browser keeps its server markup'
const HYDRATES_ON_INTENT =
  "on a page that needs no other template code the browser runs it only from the visitor's first action"
/**
 * Handlers of what only follows a first action that loads the client (CLIENT_INTENT_EVENTS: a focus, the pointer
 * over the page, a key or a press): a panel's `onBlur` needs no code before the visitor acts, nor a note.
 */
const AFTER_INTENT_HANDLERS = new Set([
  'onBlur',
  'onMouseLeave',
  'onMouseOut',
  'onPointerLeave',
  'onPointerOut',
  'onKeyUp',
  'onMouseUp',
  'onPointerUp',
])

/**
 * Which candidates are marked `'use client'`, and a hint for each unmarked one that uses hooks or event
 * handlers, saying what the browser does with it (`unmarked`; a main's template keeps its server markup).
 * `followsIntent`: its code runs from the visitor's first action, so handlers that only follow one are no hint.
 */
async function inspect(
  root: string,
  candidates: Array<{ id: string; file: string; unmarked?: string; followsIntent?: boolean }>,
): Promise<{ client: string[]; hints: string[] }> {
  const sources = await Promise.all(candidates.map(({ file }) => readFile(file, 'utf8')))
  const client: string[] = []
  const hints: string[] = []
  candidates.forEach(({ id, file, unmarked = KEEPS_SERVER_MARKUP, followsIntent = false }, i) => {
    const source = sources[i] ?? ''
    if (isClientTemplate(source)) client.push(id)
    else {
      const uses = browserCodeIn(source).filter((use) => !(followsIntent && AFTER_INTENT_HANDLERS.has(use)))
      if (uses.length > 0)
        hints.push(
          `${relative(root, file).split('\\').join('/')} uses ${uses.join(', ')} but is not marked 'use client': ${unmarked} (add 'use client' as its first line)`,
        )
    }
  })
  return { client, hints }
}

/**
 * A note for each locale with no texts file of its own (nor one of its language: `pt.ts` serves `pt-BR`) while
 * templates/texts/ has some (`textLocales`, their names): useSiteTexts() falls back, and its pages show the labels
 * of another language without anything failing.
 */
export function missingTextsNotes(
  textLocales: readonly string[],
  i18n: { default: string; locales: readonly string[] },
): string[] {
  const table = Object.fromEntries(textLocales.map((name) => [name, true]))
  return i18n.locales.flatMap((locale) => {
    const key = localeKey(table, locale, i18n.default)
    if (key === undefined || key === locale || key === locale.split('-')[0]) return []
    return [`${TEMPLATE_LAYOUT.texts}/ has no ${locale}.ts: the ${locale} pages show the texts of ${key}.ts`]
  })
}
