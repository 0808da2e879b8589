/**
 * Bundles the browser client with esbuild: the visitor entry (`src/client/entry.tsx`,
 * every page), the editor entry (`src/client/editor/entry.ts`, preview pages with
 * `?pce=1` only, loaded in addition to the visitor assets) and `templates/styles.css`.
 * Output is content-hashed under `_site/assets/`; nothing is written here (`write: false`).
 *
 * Paths are taken relative to this file so that it works from `src/build/` and from
 * the compiled `dist/build/`: both sit two levels below the package root, and
 * `src/client/` is bundled from its TypeScript sources.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'
import {
  inspectTemplates,
  listTemplateFiles,
  MAIN_TEMPLATES_MODULE,
  TEMPLATE_LAYOUT,
  templatesPlugin,
} from '../render/templates.js'
import type { ClientAssets, TemplateChunks } from '../shared/contract.js'
import { ASSETS_DIR, cacheDir } from '../shared/layout.js'
import { runtimeImportsPlugin } from './runtime-imports.js'

export interface ClientBundleOptions {
  /** Project root: `templates/` is read from here. */
  root: string
  /** @default true */
  minify?: boolean
}

export interface ClientBundleResult {
  /** Scripts and styles of every page. */
  assets: ClientAssets
  /** Editor preview extras, loaded after `assets` on `?pce=1` preview pages. */
  editorAssets: ClientAssets
  /** Output files, paths relative to the output folder (`_site/assets/entry-AB12CD.js`). */
  files: Array<{ path: string; contents: Uint8Array }>
  /** Templates that look interactive but are not marked `'use client'` (see inspectTemplates), for the build report. */
  hints: string[]
}

export interface ClientBundler {
  rebuild(): Promise<ClientBundleResult>
  dispose(): Promise<void>
}

const fromHere = (path: string): string => fileURLToPath(new URL(path, import.meta.url))
const CLIENT_ENTRY = fromHere('../../src/client/entry.tsx')
const EDITOR_ENTRY = fromHere('../../src/client/editor/entry.ts')
const ISLANDS_MODULE = fromHere('../../src/client/islands.tsx')
const RUNTIME_ENTRY = fromHere('../../src/runtime/index.ts')
/** Browsers with ES modules, `:has()` and CSS nesting (Baseline 2023). */
export const CLIENT_TARGETS = ['chrome111', 'edge111', 'firefox114', 'safari16.4']

// The engine's own React, also for templates/: one copy, one set of hooks and contexts.
const requireHere = createRequire(import.meta.url)
const packageDir = (name: string): string => dirname(requireHere.resolve(`${name}/package.json`))

type BundleOptions = esbuild.BuildOptions & { metafile: true; write: false; outdir: string; absWorkingDir: string }

const LAZY_NAMESPACE = 'site-lazy-chunk'
const WRAPPED = Symbol('wrapped')

/**
 * One chunk for everything the entry loads. esbuild puts code an entry shares with its
 * lazily loaded chunks (each template, navigation) into chunks keyed by the exact set of
 * chunks sharing it: half a dozen small files on first load, each gzipped on its own.
 * So every lazily imported module is imported through a wrapper that also imports the
 * entry: all of the entry's code then has the same importers and becomes one chunk (the
 * entry file itself a one-line stub importing it), and a lazy chunk holds only its own
 * code. At run time the wrapper's import of the entry costs nothing: it is loaded already.
 *
 * The same for the runtime code that only lazy chunks use (Frame, Media, Gallery, the
 * engine's texts…): the wrappers of templates and navigation also import the runtime
 * barrel, so that code is one chunk too, not one per set of templates sharing a piece of
 * it. Texts files (data, loaded before hydration) and `site:templates/main` (loaders only)
 * are wrapped without it.
 */
function lazyChunksPlugin(entry: string, runtime: string, withoutRuntime: (path: string) => boolean): esbuild.Plugin {
  return {
    name: 'site-lazy-chunks',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === WRAPPED) return undefined
        const resolved = await pluginBuild.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          namespace: args.namespace,
          resolveDir: args.resolveDir,
          pluginData: WRAPPED,
        })
        if (
          resolved.errors.length > 0 ||
          resolved.external ||
          (resolved.namespace !== 'file' && resolved.namespace !== 'site-templates')
        )
          return undefined
        // Templates (imported by the generated `site:templates/…` modules) and `site:templates/main` are default exports.
        return {
          path: resolved.path,
          namespace: LAZY_NAMESPACE,
          pluginData: { template: args.namespace === 'site-templates' },
        }
      })
      pluginBuild.onLoad({ filter: /.*/, namespace: LAZY_NAMESPACE }, (args) => {
        const target = JSON.stringify(args.path)
        const { template } = args.pluginData as { template: boolean }
        const imports = [entry, ...(withoutRuntime(args.path) ? [] : [runtime])].map(
          (file) => `import ${JSON.stringify(file)}`,
        )
        return {
          contents: [
            ...imports,
            `export * from ${target}`,
            ...(template ? [`export { default } from ${target}`] : []),
            '',
          ].join('\n'),
          loader: 'js',
          resolveDir: dirname(isAbsolute(args.path) ? args.path : entry),
        }
      })
    },
  }
}

/**
 * Two builds: the visitor entry with code splitting (client navigation is a lazy chunk),
 * and the editor entry on its own, so that it shares no chunk with the visitor entry
 * (a shared chunk would add a request and bytes to every visitor's first load).
 */
function createOptions(options: ClientBundleOptions): { main: BundleOptions; editor: BundleOptions } {
  const root = resolve(options.root)
  const styles = join(root, 'templates', 'styles.css')
  const textsDir = join(root, TEMPLATE_LAYOUT.texts)
  const common: BundleOptions = {
    absWorkingDir: root,
    outdir: join(root, cacheDir('client'), ASSETS_DIR),
    write: false,
    metafile: true,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: CLIENT_TARGETS,
    minify: options.minify ?? true,
    jsx: 'automatic',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    publicPath: `/${ASSETS_DIR}`,
    loader: {
      '.woff': 'file',
      '.woff2': 'file',
      '.png': 'file',
      '.jpg': 'file',
      '.jpeg': 'file',
      '.gif': 'file',
      '.svg': 'file',
      '.webp': 'file',
      '.avif': 'file',
    },
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: { react: packageDir('react'), 'react-dom': packageDir('react-dom') },
    plugins: [templatesPlugin(root, { runtime: RUNTIME_ENTRY })],
    // React's license headers go to a `.LEGAL.txt` file beside each script that names it, not into every visitor's download.
    legalComments: 'linked',
    logLevel: 'silent',
  }
  const mainEntries: Record<string, string> = { entry: CLIENT_ENTRY }
  if (existsSync(styles)) mainEntries.styles = styles
  return {
    main: {
      ...common,
      entryPoints: mainEntries,
      splitting: true,
      plugins: [
        lazyChunksPlugin(
          CLIENT_ENTRY,
          RUNTIME_ENTRY,
          (path) => path === MAIN_TEMPLATES_MODULE || dirname(path) === textsDir,
        ),
        runtimeImportsPlugin(RUNTIME_ENTRY),
        ...(common.plugins ?? []),
      ],
    },
    editor: { ...common, entryPoints: { editor: EDITOR_ENTRY }, splitting: false },
  }
}

type Built = esbuild.BuildResult & { metafile: esbuild.Metafile; outputFiles: esbuild.OutputFile[] }

/** Asset URLs of one entry and the output files of its build. */
function readBuild(
  result: Built,
  config: BundleOptions,
  name: 'entry' | 'editor',
  client: string[] = [],
): { assets: ClientAssets; files: ClientBundleResult['files'] } {
  const { outputs } = result.metafile
  const toRelative = (file: string) => relative(config.outdir, resolve(config.absWorkingDir, file)).split(sep).join('/')
  const toUrl = (file: string) => `/${ASSETS_DIR}/${toRelative(file)}`
  const entryOutput = (entry: string, ext: string) =>
    Object.keys(outputs).find(
      (file) =>
        toRelative(file).startsWith(`${entry}-`) && file.endsWith(ext) && outputs[file]?.entryPoint !== undefined,
    )
  // Chunks the entry imports statically load with it on first load: they are preloaded.
  const staticImports = (file: string, seen = new Set<string>()): string[] => {
    for (const item of outputs[file]?.imports ?? []) {
      if (item.kind !== 'import-statement' || item.external || seen.has(item.path)) continue
      seen.add(item.path)
      staticImports(item.path, seen)
    }
    return [...seen]
  }
  const js = entryOutput(name, '.js')
  if (!js) throw new Error(`bundleClient: esbuild produced no ${name} script`)
  const css = [outputs[js]?.cssBundle, name === 'entry' ? entryOutput('styles', '.css') : undefined].filter(
    (f): f is string => f !== undefined,
  )
  const preloads = staticImports(js)
  const loaded = new Set([js, ...preloads])
  // Each layout, content element, texts file, the error page and `site:templates/main` (their loaders):
  // its chunk and the chunks that chunk imports, beyond what every page loads.
  const templateChunks: TemplateChunks = { layouts: {}, content: {}, texts: {}, client }
  const dirs = (['layouts', 'content', 'texts'] as const).map(
    (kind) => [kind, resolve(config.absWorkingDir, TEMPLATE_LAYOUT[kind])] as const,
  )
  const templatesDir = resolve(config.absWorkingDir, TEMPLATE_LAYOUT.dir)
  for (const file of Object.keys(outputs).sort()) {
    const entryPoint = outputs[file]?.entryPoint ?? ''
    if (!entryPoint.startsWith(`${LAZY_NAMESPACE}:`)) continue
    const source = entryPoint.slice(LAZY_NAMESPACE.length + 1)
    const urls = () => [file, ...staticImports(file)].filter((chunk) => !loaded.has(chunk)).map(toUrl)
    const name = basename(source, extname(source))
    const kind = dirs.find(([, dir]) => dirname(source) === dir)?.[0]
    if (kind) (templateChunks[kind] as Record<string, string[]>)[name] = urls()
    else if (dirname(source) === templatesDir && name === 'ErrorPage') templateChunks.ErrorPage = urls()
    else if (source === MAIN_TEMPLATES_MODULE) templateChunks.main = urls()
    else if (resolve(source) === ISLANDS_MODULE) templateChunks.islands = urls()
  }
  return {
    assets: {
      scripts: [toUrl(js)],
      styles: css.map(toUrl),
      modulePreloads: preloads.map(toUrl),
      ...(name === 'entry' ? { templateChunks } : {}),
    },
    files: result.outputFiles.map((file) => ({
      path: `${ASSETS_DIR}/${relative(config.outdir, file.path).split(sep).join('/')}`,
      contents: file.contents,
    })),
  }
}

async function toBundleResult(
  main: Built,
  editor: Built,
  config: { main: BundleOptions; editor: BundleOptions },
): Promise<ClientBundleResult> {
  // The templates marked 'use client': a page whose main renders one hydrates it (see keepsMain).
  const root = config.main.absWorkingDir
  const { client, hints } = await inspectTemplates(await listTemplateFiles(root), root)
  const visitor = readBuild(main, config.main, 'entry', client)
  const preview = readBuild(editor, config.editor, 'editor')
  const seen = new Set(visitor.files.map((file) => file.path))
  const files = [...visitor.files, ...preview.files.filter((file) => !seen.has(file.path))]
  return { assets: visitor.assets, editorAssets: preview.assets, files, hints }
}

const failureMessage = (error: unknown): string => {
  const errors = (error as esbuild.BuildFailure)?.errors
  if (!Array.isArray(errors) || errors.length === 0) return error instanceof Error ? error.message : String(error)
  return esbuild.formatMessagesSync(errors, { kind: 'error', color: false }).join('\n').trim()
}

async function run<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task()
  } catch (error) {
    throw new Error(`Bundling the browser client failed:\n${failureMessage(error)}`, { cause: error })
  }
}

/** One production bundle of the client (used by `site build`). */
export async function bundleClient(options: ClientBundleOptions): Promise<ClientBundleResult> {
  const config = createOptions(options)
  const [main, editor] = await run(() => Promise.all([esbuild.build(config.main), esbuild.build(config.editor)]))
  return toBundleResult(main, editor, config)
}

/** An incremental bundler for watch mode (`site preview`): each `rebuild()` reuses esbuild's work. */
export function createClientBundler(options: ClientBundleOptions): ClientBundler {
  const config = createOptions(options)
  type Contexts = [esbuild.BuildContext<BundleOptions>, esbuild.BuildContext<BundleOptions>]
  let contexts: Promise<Contexts> | undefined
  return {
    async rebuild() {
      contexts ??= Promise.all([esbuild.context(config.main), esbuild.context(config.editor)]).catch(
        (error: unknown) => {
          contexts = undefined
          throw error
        },
      )
      const [main, editor] = await run(() => contexts as Promise<Contexts>)
      const [mainResult, editorResult] = await run(() => Promise.all([main.rebuild(), editor.rebuild()]))
      return toBundleResult(mainResult, editorResult, config)
    },
    async dispose() {
      const pending = contexts
      contexts = undefined
      const created = await pending?.catch(() => undefined)
      await Promise.all(created?.map((ctx) => ctx.dispose()) ?? [])
    },
  }
}
