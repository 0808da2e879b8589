/**
 * templates/ -> TemplateRegistry (Node only). The registry is a generated module,
 * `site:templates`, importing every layout and content element by file name. For Node
 * it is bundled with esbuild, React and `site/runtime` left external but pointed at the
 * engine's own copies, so templates and engine share one React and one context.
 *
 * The browser client bundles `site:templates/lazy` through `templatesPlugin` instead:
 * Header, Footer and ErrorPage imported as they are, every layout and content element
 * a loader (`() => import(file)`), so that esbuild gives each its own chunk and a page
 * downloads only the templates it renders (see src/client/templates.ts).
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { extname, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, type BuildFailure, type Message, type Plugin } from 'esbuild'
import { SiteError } from '../errors.js'
import type { TemplateRegistry } from './types.js'

/** Where templates live under a project root. */
export const TEMPLATE_LAYOUT = {
  dir: 'templates',
  layouts: 'templates/layouts',
  content: 'templates/content',
  singles: ['Header', 'Footer', 'ErrorPage'],
} as const

/** The virtual module that default-exports the registry. */
export const TEMPLATES_MODULE = 'site:templates'
/** The browser's variant: layouts and content elements as loaders (`() => import(file)`). */
export const LAZY_TEMPLATES_MODULE = 'site:templates/lazy'

const TEMPLATE_FILE_RE = /^([A-Z][A-Za-z0-9]*)\.(tsx|jsx|ts|js)$/
const REACT_RE = /^(react|react-dom)(\/.*)?$/

async function listComponents(dir: string): Promise<Array<{ name: string; file: string }>> {
  const names = existsSync(dir) ? await readdir(dir) : []
  const seen = new Map<string, string>()
  for (const name of names.sort()) {
    const match = TEMPLATE_FILE_RE.exec(name)
    if (match?.[1] && !seen.has(match[1])) seen.set(match[1], join(dir, name))
  }
  return [...seen].map(([name, file]) => ({ name, file }))
}

async function findSingle(root: string, name: string): Promise<string | undefined> {
  const files = await listComponents(join(root, TEMPLATE_LAYOUT.dir))
  return files.find((f) => f.name === name)?.file
}

export interface RegistrySourceOptions {
  /**
   * Layouts and content elements as loaders, `{ Text: () => import("/abs/templates/content/Text.tsx") }`,
   * instead of components (the `site:templates/lazy` module of the browser client).
   */
  lazy?: boolean
}

/** Source of the `site:templates` module for the templates under `root`; names the files that are missing. */
export async function generateRegistrySource(root: string, options: RegistrySourceOptions = {}): Promise<string> {
  const layouts = await listComponents(join(root, TEMPLATE_LAYOUT.layouts))
  const content = await listComponents(join(root, TEMPLATE_LAYOUT.content))
  const singles = await Promise.all(TEMPLATE_LAYOUT.singles.map(async (name) => ({ name, file: await findSingle(root, name) })))
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
  const imports: string[] = []
  const entry = (prefix: string) => (c: { name: string; file: string }, i: number) => {
    if (options.lazy) return `    ${JSON.stringify(c.name)}: () => import(${JSON.stringify(c.file)}),`
    imports.push(`import ${prefix}${i} from ${JSON.stringify(c.file)}`)
    return `    ${JSON.stringify(c.name)}: ${prefix}${i},`
  }
  const layoutEntries = layouts.map(entry('L'))
  const contentEntries = content.map(entry('C'))
  const singleEntries = singles.map((s, i) => {
    imports.push(`import S${i} from ${JSON.stringify(s.file)}`)
    return `  ${s.name}: S${i},`
  })
  return [
    `// Generated from templates/ by src/render/templates.ts: one entry per file${options.lazy ? ', layouts and content elements loaded on demand' : ''}.`,
    ...imports,
    'export default {',
    '  layouts: {',
    ...layoutEntries,
    '  },',
    '  content: {',
    ...contentEntries,
    '  },',
    ...singleEntries,
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
 * `import templates from 'site:templates/lazy'` the same with layouts and content elements as loaders.
 */
export function templatesPlugin(root: string, options: TemplatesPluginOptions = {}): Plugin {
  return {
    name: 'site-templates',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^site:templates(\/lazy)?$/ }, (args) => ({ path: args.path, namespace: 'site-templates' }))
      pluginBuild.onLoad({ filter: /.*/, namespace: 'site-templates' }, async (args) => ({
        contents: await generateRegistrySource(root, { lazy: args.path === LAZY_TEMPLATES_MODULE }),
        loader: 'js',
        resolveDir: root,
        watchDirs: [join(root, TEMPLATE_LAYOUT.dir), join(root, TEMPLATE_LAYOUT.layouts), join(root, TEMPLATE_LAYOUT.content)],
      }))
      const runtime = options.runtime
      if (runtime) pluginBuild.onResolve({ filter: /^site\/runtime$/ }, () => ({ path: runtime }))
    },
  }
}

/**
 * The engine's own runtime: dist/runtime/index.js next to the running dist/render/templates.js
 * (or src/runtime/index.ts when the engine runs from source, as under vitest).
 */
const engineRuntimeUrl = (): string => new URL(`../runtime/index${extname(fileURLToPath(import.meta.url))}`, import.meta.url).href

function nodeExternalsPlugin(runtimeUrl: string): Plugin {
  const require = createRequire(import.meta.url)
  return {
    name: 'site-node-externals',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^site\/runtime$/ }, () => ({ path: runtimeUrl, external: true }))
      pluginBuild.onResolve({ filter: REACT_RE }, (args) => ({ path: pathToFileURL(require.resolve(args.path)).href, external: true }))
    },
  }
}

const describe = (root: string, message: Message): string => {
  const at = message.location ? `${relative(root, join(root, message.location.file))}:${message.location.line}:${message.location.column + 1}: ` : ''
  return `${at}${message.text}`
}

const isBuildFailure = (error: unknown): error is BuildFailure => error instanceof Error && Array.isArray((error as BuildFailure).errors)

export interface LoadTemplatesOptions {
  /** Folder for the bundled registry files (one content-hashed file per templates state). */
  cacheDir?: string
  /** URL the templates' `site/runtime` is loaded from; the engine's own copy by default. */
  runtimeUrl?: string
}

/** Bundles templates/ for Node and imports it: a new file per content, so a running preview can reload. */
export async function loadTemplates(root: string, options: LoadTemplatesOptions = {}): Promise<TemplateRegistry> {
  const source = await generateRegistrySource(root)
  const cacheDir = options.cacheDir ?? join(root, '.site', 'templates')
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
    throw new SiteError('TEMPLATES_INVALID', `Templates failed to load: ${(error as Error)?.message ?? String(error)}`, { cause: error })
  }
  return checkRegistry(registry)
}

const isComponent = (value: unknown): boolean => typeof value === 'function' || (typeof value === 'object' && value !== null && '$$typeof' in value)

function checkRegistry(value: unknown): TemplateRegistry {
  const registry = value as TemplateRegistry
  const bad = [
    ...Object.entries(registry.layouts).filter(([, c]) => !isComponent(c)).map(([n]) => `${TEMPLATE_LAYOUT.layouts}/${n}`),
    ...Object.entries(registry.content).filter(([, c]) => !isComponent(c)).map(([n]) => `${TEMPLATE_LAYOUT.content}/${n}`),
    ...TEMPLATE_LAYOUT.singles.filter((n) => !isComponent(registry[n])).map((n) => `${TEMPLATE_LAYOUT.dir}/${n}`),
  ]
  if (bad.length > 0) {
    throw new SiteError('TEMPLATES_INVALID', `Templates without a default-exported React component: ${bad.join(', ')}`)
  }
  return registry
}
