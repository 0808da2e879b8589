/**
 * templates/ -> TemplateRegistry (Node only). The registry is a generated module,
 * `site:templates`, importing every layout and content element by file name. For Node
 * it is bundled with esbuild, React and `site/runtime` left external but pointed at the
 * engine's own copies, so templates and engine share one React and one context.
 *
 * The browser client bundles `site:templates/lazy` through `templatesPlugin` instead:
 * Header and Footer imported as they are, each per-locale texts file
 * (`templates/texts/<locale>.ts`) a loader (`() => import(file)`), `client` (the templates
 * marked `'use client'`) and a loader of `site:templates/main`, which has every layout,
 * content element and ErrorPage as a loader. esbuild gives each its own chunk, so a page
 * downloads only what it hydrates with (see src/client/templates.ts).
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { extname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { type BuildFailure, build, type Message, type Plugin } from 'esbuild'
import { SiteError } from '../errors.js'
import type { TemplateRegistry } from '../shared/contract.js'
import { cacheDir as cacheDirOf } from '../shared/layout.js'

/** Where templates live under a project root. */
export const TEMPLATE_LAYOUT = {
  dir: 'templates',
  layouts: 'templates/layouts',
  content: 'templates/content',
  /** Per-locale texts, `templates/texts/<locale>.ts` (optional). */
  texts: 'templates/texts',
  singles: ['Header', 'Footer', 'ErrorPage'],
} as const

/** The virtual module that default-exports the registry. */
export const TEMPLATES_MODULE = 'site:templates'
/**
 * The browser entry's variant: Header and Footer, each locale's texts as a loader
 * (`() => import(file)`), the `client` list and a loader of `site:templates/main`.
 */
export const LAZY_TEMPLATES_MODULE = 'site:templates/lazy'
/** Layouts, content elements and ErrorPage as loaders: what only a render of a main needs. */
export const MAIN_TEMPLATES_MODULE = 'site:templates/main'

export type TemplatesModule = typeof TEMPLATES_MODULE | typeof LAZY_TEMPLATES_MODULE | typeof MAIN_TEMPLATES_MODULE

const TEMPLATE_FILE_RE = /^([A-Z][A-Za-z0-9]*)\.(tsx|jsx|ts|js)$/
const TEXTS_FILE_RE = /^([a-z]{2,3}(?:-[A-Za-z0-9]{1,8})*)\.(ts|js|json)$/
const REACT_RE = /^(react|react-dom)(\/.*)?$/

async function listFiles(dir: string, pattern: RegExp): Promise<Array<{ name: string; file: string }>> {
  const names = existsSync(dir) ? await readdir(dir) : []
  const seen = new Map<string, string>()
  for (const name of names.sort()) {
    const match = pattern.exec(name)
    if (match?.[1] && !seen.has(match[1])) seen.set(match[1], join(dir, name))
  }
  return [...seen].map(([name, file]) => ({ name, file }))
}

const listComponents = (dir: string) => listFiles(dir, TEMPLATE_FILE_RE)

// Whitespace, comments and directives (`'use strict';`) before the code of a module.
const PROLOGUE_ITEM_RE = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|(['"])(use [^'"\n]*)\1\s*;?)/

/**
 * True when a template's source starts with the `'use client'` directive: it needs the browser
 * (state, effects, event handlers), so a page that renders it hydrates its main with it. Without
 * it a template is markup only: the browser keeps what the server rendered until a client navigation.
 */
export function isClientTemplate(source: string): boolean {
  let rest = source.startsWith('\ufeff') ? source.slice(1) : source
  for (let match = PROLOGUE_ITEM_RE.exec(rest); match; match = PROLOGUE_ITEM_RE.exec(rest)) {
    if (match[2] === 'use client') return true
    rest = rest.slice(match[0].length)
  }
  return false
}

async function findSingle(root: string, name: string): Promise<string | undefined> {
  const files = await listComponents(join(root, TEMPLATE_LAYOUT.dir))
  return files.find((f) => f.name === name)?.file
}

/** What a project's templates/ holds: files by registry key. */
export interface TemplateFiles {
  layouts: Array<{ name: string; file: string }>
  content: Array<{ name: string; file: string }>
  singles: Array<{ name: (typeof TEMPLATE_LAYOUT.singles)[number]; file: string }>
  /** `templates/texts/<locale>.ts`, by locale. */
  texts: Array<{ name: string; file: string }>
}

/** The template files under `root`; names the required files that are missing. */
export async function listTemplateFiles(root: string): Promise<TemplateFiles> {
  const layouts = await listComponents(join(root, TEMPLATE_LAYOUT.layouts))
  const content = await listComponents(join(root, TEMPLATE_LAYOUT.content))
  const texts = await listFiles(join(root, TEMPLATE_LAYOUT.texts), TEXTS_FILE_RE)
  const singles = await Promise.all(
    TEMPLATE_LAYOUT.singles.map(async (name) => ({ name, file: await findSingle(root, name) })),
  )
  const missing = [
    ...(layouts.some((l) => l.name === 'Default') ? [] : [`${TEMPLATE_LAYOUT.layouts}/Default.tsx`]),
    ...(content.some((c) => c.name === 'Default') ? [] : [`${TEMPLATE_LAYOUT.content}/Default.tsx`]),
    ...singles.filter((s) => !s.file).map((s) => `${TEMPLATE_LAYOUT.dir}/${s.name}.tsx`),
  ]
  if (missing.length > 0) {
    throw new SiteError('TEMPLATES_INVALID', `Templates are incomplete under ${root}: missing ${missing.join(', ')}`, {
      hint: 'A site needs a Default layout, a Default content element, Header, Footer and ErrorPage.',
    })
  }
  return { layouts, content, texts, singles: singles.map(({ name, file }) => ({ name, file: file as string })) }
}

// React hooks and JSX event handlers: what only does something in the browser.
const BROWSER_CODE_RE =
  /\b(use(?:State|Reducer|Effect|LayoutEffect|InsertionEffect|Ref|Transition|ActionState|Optimistic|SyncExternalStore|ImperativeHandle))\s*\(|\s(on[A-Z][A-Za-z]*)\s*=\s*\{/g

/** Hooks and event handler props a template's own source uses: `['useState', 'onClick']`. A hint, not a parse. */
export function browserCodeIn(source: string): string[] {
  return [...new Set([...source.matchAll(BROWSER_CODE_RE)].map((match) => match[1] ?? match[2] ?? ''))]
}

/**
 * Which layouts, content elements and error page are marked `'use client'` (ids `layouts/Form`,
 * `content/Map`, `ErrorPage`), and a hint for each unmarked one whose own source uses hooks or
 * event handlers: the browser keeps its server markup until a client navigation, so they would
 * do nothing on a first visit.
 */
export async function inspectTemplates(
  files: TemplateFiles,
  root?: string,
): Promise<{ client: string[]; hints: string[] }> {
  const candidates = [
    ...files.layouts.map((l) => ({ id: `layouts/${l.name}`, file: l.file })),
    ...files.content.map((c) => ({ id: `content/${c.name}`, file: c.file })),
    ...files.singles.filter((s) => s.name === 'ErrorPage').map((s) => ({ id: s.name, file: s.file })),
  ]
  const client: string[] = []
  const hints: string[] = []
  for (const { id, file } of candidates) {
    const source = await readFile(file, 'utf8')
    if (isClientTemplate(source)) client.push(id)
    else {
      const uses = browserCodeIn(source)
      if (uses.length > 0)
        hints.push(
          `${root ? relative(root, file).split('\\').join('/') : file} uses ${uses.join(', ')} but is not marked 'use client': on a first visit the browser keeps its server markup (add 'use client' as its first line)`,
        )
    }
  }
  return { client, hints }
}

/** Source of a `site:templates…` module for the templates under `root`; names the files that are missing. */
export async function generateRegistrySource(
  root: string,
  module: TemplatesModule = TEMPLATES_MODULE,
): Promise<string> {
  return registrySource(await listTemplateFiles(root), module)
}

async function registrySource(files: TemplateFiles, module: TemplatesModule): Promise<string> {
  const imports: string[] = []
  const value = (file: string, lazy: boolean) => {
    if (lazy) return `() => import(${JSON.stringify(file)})`
    imports.push(`import T${imports.length} from ${JSON.stringify(file)}`)
    return `T${imports.length - 1}`
  }
  const map = (name: string, list: Array<{ name: string; file: string }>, lazy: boolean) => [
    `  ${name}: {`,
    ...list.map((c) => `    ${JSON.stringify(c.name)}: ${value(c.file, lazy)},`),
    '  },',
  ]
  const single = (name: string, lazy: boolean) => {
    const file = files.singles.find((s) => s.name === name)?.file as string
    return `  ${name}: ${value(file, lazy)},`
  }
  let body: string[]
  if (module === LAZY_TEMPLATES_MODULE) {
    // Which templates are marked 'use client' the server reads (the bundle's `templateChunks.client`) and
    // decides how each page hydrates (the boot's `hydration`): the browser needs only their loaders.
    const { client } = await inspectTemplates(files)
    body = [
      single('Header', false),
      single('Footer', false),
      ...map('texts', files.texts, true),
      `  main: () => import(${JSON.stringify(MAIN_TEMPLATES_MODULE)}),`,
      // Content elements marked 'use client' load without `main` on a page where they are islands.
      ...map(
        'islands',
        files.content.filter((c) => client.includes(`content/${c.name}`)),
        true,
      ),
    ]
  } else if (module === MAIN_TEMPLATES_MODULE) {
    body = [...map('layouts', files.layouts, true), ...map('content', files.content, true), single('ErrorPage', true)]
  } else {
    body = [
      ...map('layouts', files.layouts, false),
      ...map('content', files.content, false),
      ...map('texts', files.texts, false),
      ...TEMPLATE_LAYOUT.singles.map((name) => single(name, false)),
    ]
  }
  return [
    `// ${module}, generated from templates/ by src/render/templates.ts: one entry per file.`,
    ...imports,
    'export default {',
    ...body,
    '}',
    '',
  ].join('\n')
}

export interface TemplatesPluginOptions {
  /** Resolve `site/runtime` to this file as well (the browser bundle: the client's own runtime copy). */
  runtime?: string
}

/**
 * esbuild plugin: `import registry from 'site:templates'` gives the TemplateRegistry of `root`;
 * `site:templates/lazy` and `site:templates/main` the browser's modules (see LAZY_TEMPLATES_MODULE).
 */
export function templatesPlugin(root: string, options: TemplatesPluginOptions = {}): Plugin {
  return {
    name: 'site-templates',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^site:templates(\/(lazy|main))?$/ }, (args) => ({
        path: args.path,
        namespace: 'site-templates',
      }))
      pluginBuild.onLoad({ filter: /.*/, namespace: 'site-templates' }, async (args) => {
        const files = await listTemplateFiles(root)
        const lazy = args.path === LAZY_TEMPLATES_MODULE
        return {
          contents: await registrySource(files, args.path as TemplatesModule),
          loader: 'js',
          resolveDir: root,
          // The lazy module lists the templates marked 'use client': a change of directive regenerates it.
          watchFiles: lazy ? [...files.layouts, ...files.content, ...files.singles].map((f) => f.file) : [],
          watchDirs: [
            join(root, TEMPLATE_LAYOUT.dir),
            join(root, TEMPLATE_LAYOUT.layouts),
            join(root, TEMPLATE_LAYOUT.content),
            join(root, TEMPLATE_LAYOUT.texts),
          ],
        }
      })
      const runtime = options.runtime
      if (runtime) pluginBuild.onResolve({ filter: /^site\/runtime$/ }, () => ({ path: runtime }))
    },
  }
}

/**
 * The engine's own runtime: dist/runtime/index.js next to the running dist/render/templates.js
 * (or src/runtime/index.ts when the engine runs from source, as under vitest).
 */
const engineRuntimeUrl = (): string =>
  new URL(`../runtime/index${extname(fileURLToPath(import.meta.url))}`, import.meta.url).href

function nodeExternalsPlugin(runtimeUrl: string): Plugin {
  const require = createRequire(import.meta.url)
  return {
    name: 'site-node-externals',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^site\/runtime$/ }, () => ({ path: runtimeUrl, external: true }))
      pluginBuild.onResolve({ filter: REACT_RE }, (args) => ({
        path: pathToFileURL(require.resolve(args.path)).href,
        external: true,
      }))
    },
  }
}

const describe = (root: string, message: Message): string => {
  const at = message.location
    ? `${relative(root, join(root, message.location.file))}:${message.location.line}:${message.location.column + 1}: `
    : ''
  return `${at}${message.text}`
}

const isBuildFailure = (error: unknown): error is BuildFailure =>
  error instanceof Error && Array.isArray((error as BuildFailure).errors)

export interface LoadTemplatesOptions {
  /** Folder for the bundled registry files (one content-hashed file per templates state). */
  cacheDir?: string
  /** URL the templates' `site/runtime` is loaded from; the engine's own copy by default. */
  runtimeUrl?: string
}

/** Bundles templates/ for Node and imports it: a new file per content, so a running preview can reload. */
export async function loadTemplates(root: string, options: LoadTemplatesOptions = {}): Promise<TemplateRegistry> {
  const source = await generateRegistrySource(root, TEMPLATES_MODULE)
  const cacheDir = options.cacheDir ?? join(root, cacheDirOf('templates'))
  let code: string
  try {
    const result = await build({
      stdin: { contents: source, resolveDir: root, loader: 'js', sourcefile: TEMPLATES_MODULE },
      absWorkingDir: root,
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      jsx: 'automatic',
      loader: { '.css': 'empty' },
      logLevel: 'silent',
      plugins: [nodeExternalsPlugin(options.runtimeUrl ?? engineRuntimeUrl())],
    })
    code = result.outputFiles[0]?.text ?? ''
  } catch (error) {
    if (!isBuildFailure(error)) throw error
    const details = error.errors.map((message) => `  ${describe(root, message)}`).join('\n')
    throw new SiteError('TEMPLATES_INVALID', `Templates failed to compile:\n${details}`, { cause: error })
  }
  const file = join(cacheDir, `templates-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`)
  await mkdir(cacheDir, { recursive: true })
  if (!existsSync(file)) {
    // Written aside, then renamed: another process loading the same templates never imports half a file.
    const partial = `${file}.${process.pid}-${Date.now()}.tmp`
    await writeFile(partial, code)
    await rename(partial, file)
  }
  let registry: unknown
  try {
    registry = ((await import(pathToFileURL(file).href)) as { default: unknown }).default
  } catch (error) {
    throw new SiteError(
      'TEMPLATES_INVALID',
      `Templates failed to load: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    )
  }
  return checkRegistry(registry)
}

const isComponent = (value: unknown): boolean =>
  typeof value === 'function' || (typeof value === 'object' && value !== null && '$$typeof' in value)

function checkRegistry(value: unknown): TemplateRegistry {
  const registry = value as TemplateRegistry
  const bad = [
    ...Object.entries(registry.layouts)
      .filter(([, c]) => !isComponent(c))
      .map(([n]) => `${TEMPLATE_LAYOUT.layouts}/${n}`),
    ...Object.entries(registry.content)
      .filter(([, c]) => !isComponent(c))
      .map(([n]) => `${TEMPLATE_LAYOUT.content}/${n}`),
    ...TEMPLATE_LAYOUT.singles.filter((n) => !isComponent(registry[n])).map((n) => `${TEMPLATE_LAYOUT.dir}/${n}`),
  ]
  const badTexts = Object.entries(registry.texts ?? {})
    .filter(([, texts]) => typeof texts !== 'object' || texts === null)
    .map(([locale]) => `${TEMPLATE_LAYOUT.texts}/${locale}`)
  if (badTexts.length > 0) {
    throw new SiteError('TEMPLATES_INVALID', `Texts files without a default-exported object: ${badTexts.join(', ')}`)
  }
  if (bad.length > 0) {
    throw new SiteError('TEMPLATES_INVALID', `Templates without a default-exported React component: ${bad.join(', ')}`)
  }
  return registry
}
