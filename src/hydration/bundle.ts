/**
 * Bundles the browser client with esbuild: the visitor entry (`src/client/entry.tsx`, every
 * page, with the templates of `site:templates/lazy`), in preview the editor entry (`src/client/editor/entry.ts`,
 * preview pages with `?pce=1` only, loaded in addition to the visitor assets), and
 * `templates/styles.css`. Templates are read once per bundle (scanTemplates); the chunk plan
 * comes from esbuild's metafile (chunks.ts). Output is content-hashed under `_site/assets/`;
 * nothing is written here (`write: false`).
 *
 * Paths are taken relative to this file so that it works from `src/hydration/` and from the
 * compiled `dist/hydration/`: both sit two levels below the package root, and `src/client/`
 * is bundled from its TypeScript sources.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type * as esbuild from 'esbuild'
import { cachedBundle, metafileInputs } from '../project/bundle-cache.js'
import type { ClientAssets } from '../shared/contract.js'
import { holdEsbuild, withEsbuild } from '../shared/esbuild-service.js'
import { ASSETS_DIR, cacheDir } from '../shared/layout.js'
import { isRecord } from '../shared/values.js'
import { type ChunkPlan, planChunks } from './chunks.js'
import { type PackageImporters, packageImportersPlugin, toTemplatesError } from './errors.js'
import { scanTemplates, TEMPLATE_LAYOUT, type TemplateManifest } from './manifest.js'
import { lazyChunksPlugin, templatesPlugin } from './plugins.js'
import { MAIN_TEMPLATES_MODULE } from './registry-source.js'
import { runtimeImportsPlugin } from './runtime-imports.js'

export interface ClientBundleOptions {
  /** Project root: `templates/` is read from here. */
  root: string
  /** @default true */
  minify?: boolean
  /**
   * `site preview` (createClientBundler): also the preview entry (live reload and the error overlay). A build's
   * bundleClient makes neither it nor the editor's.
   */
  preview?: boolean
  /**
   * Take the bundle from the project's `.site/bundles/` when the files it read are as they were, and store a new
   * one there (bundle-cache.ts).
   * @default true
   */
  cache?: boolean
}

/** The browser client as build and preview use it. */
export interface ClientBundle {
  /** Scripts and styles of every page, and the chunks of its templates (`templateChunks`). */
  assets: ClientAssets
  /** Preview's bundles: editor preview extras, loaded after `assets` on `?pce=1` pages (no built page loads them). */
  editorAssets?: ClientAssets
  /** With `preview`: the preview entry (src/client/preview/), loaded after `assets` on every preview page. */
  previewAssets?: ClientAssets
  /** Output files, paths relative to the output folder (`_site/assets/entry-AB12CD.js`). */
  files: ReadonlyArray<{ path: string; contents: string | Uint8Array }>
  /**
   * scanTemplates' notes (layout and content files named unlike a template, templates that look interactive but are
   * not marked `'use client'`), for the build report and preview's terminal.
   */
  hints: readonly string[]
  /** The locales of `templates/texts/`, in the registry's order (the last of useSiteTexts() fallbacks is the first). */
  texts: readonly string[]
}

export interface ClientBundler {
  /** Bundles again (reusing esbuild's work); `manifest`: the templates as already read, else read anew. */
  rebuild(manifest?: TemplateManifest): Promise<ClientBundle>
  dispose(): Promise<void>
}

const fromHere = (path: string): string => fileURLToPath(new URL(path, import.meta.url))
const ENGINE_SOURCES = fromHere('../../src')
const CLIENT_ENTRY = fromHere('../../src/client/entry.tsx')
const EDITOR_ENTRY = fromHere('../../src/client/editor/entry.ts')
const PREVIEW_ENTRY = fromHere('../../src/client/preview/entry.ts')
const ISLANDS_MODULE = fromHere('../../src/client/islands.tsx')
const RUNTIME_ENTRY = fromHere('../../src/runtime/index.ts')
/** Browsers with ES modules, `:has()` and CSS nesting (Baseline 2023). */
const CLIENT_TARGETS = ['chrome111', 'edge111', 'firefox114', 'safari16.4']

// The engine's own React, also for templates/: one copy, one set of hooks and contexts.
const requireHere = createRequire(import.meta.url)
const packageDir = (name: string): string => dirname(requireHere.resolve(`${name}/package.json`))

type BundleOptions = esbuild.BuildOptions & { metafile: true; write: false; outdir: string; absWorkingDir: string }

/**
 * Two builds: the visitor entry with code splitting (client navigation is a lazy chunk),
 * and the editor entry on its own, so that it shares no chunk with the visitor entry
 * (a shared chunk would add a request and bytes to every visitor's first load).
 * `manifest` is read by the templates plugin at each (re)build; `importers` is what the visitor build
 * last recorded of who imports each package (for its errors).
 */
function createOptions(
  options: ClientBundleOptions,
  manifest: () => TemplateManifest,
): { main: BundleOptions; editor: BundleOptions; importers: PackageImporters } {
  const root = resolve(options.root)
  const styles = join(root, TEMPLATE_LAYOUT.dir, 'styles.css')
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
    // React's license headers go to a `.LEGAL.txt` file beside each script that names it, not into every visitor's download.
    legalComments: 'linked',
    logLevel: 'silent',
  }
  const importers: PackageImporters = new Map()
  const mainEntries: Record<string, string> = { entry: CLIENT_ENTRY }
  if (existsSync(styles)) mainEntries.styles = styles
  return {
    main: {
      ...common,
      entryPoints: mainEntries,
      splitting: true,
      plugins: [
        packageImportersPlugin(importers),
        lazyChunksPlugin(
          CLIENT_ENTRY,
          RUNTIME_ENTRY,
          (path) => path === MAIN_TEMPLATES_MODULE || dirname(path) === textsDir,
        ),
        runtimeImportsPlugin(RUNTIME_ENTRY),
        templatesPlugin(manifest, { runtime: RUNTIME_ENTRY }),
      ],
    },
    // The preview entry goes with the editor's: a file of its own (no splitting), and only into preview's bundle.
    editor: {
      ...common,
      entryPoints: { editor: EDITOR_ENTRY, ...(options.preview ? { preview: PREVIEW_ENTRY } : {}) },
      splitting: false,
    },
    importers,
  }
}

type Built = esbuild.BuildResult & { metafile: esbuild.Metafile; outputFiles: esbuild.OutputFile[] }

function plan(result: Built, config: BundleOptions, entry: string, manifest?: TemplateManifest): ChunkPlan {
  const { metafile, outputFiles } = result
  const { outdir, absWorkingDir } = config
  return planChunks({ metafile, outputFiles, outdir, absWorkingDir, entry, manifest, islandsModule: ISLANDS_MODULE })
}

/** The bundle of the visitor build `main` and, in preview, of the editor build. */
function toBundle(
  built: { main: Built; editor?: Built },
  config: { main: BundleOptions; editor: BundleOptions },
  manifest: TemplateManifest,
): ClientBundle {
  const visitor = plan(built.main, config.main, 'entry', manifest)
  const bundle: ClientBundle = {
    assets: visitor.assets,
    files: visitor.files,
    hints: manifest.hints,
    texts: manifest.texts.map((file) => file.name),
  }
  if (!built.editor) return bundle
  const editor = plan(built.editor, config.editor, 'editor')
  const seen = new Set(visitor.files.map((file) => file.path))
  const hasPreview = typeof config.editor.entryPoints === 'object' && 'preview' in config.editor.entryPoints
  return {
    ...bundle,
    editorAssets: editor.assets,
    ...(hasPreview ? { previewAssets: plan(built.editor, config.editor, 'preview').assets } : {}),
    files: [...visitor.files, ...editor.files.filter((file) => !seen.has(file.path))],
  }
}

async function run<T>(root: string, importers: PackageImporters, task: () => Promise<T>): Promise<T> {
  try {
    return await task()
  } catch (error) {
    throw toTemplatesError(root, error, ENGINE_SOURCES, importers)
  }
}

/**
 * One production bundle of the client (used by `site build`), from the bundle cache when it holds: the visitor
 * build alone, as no built page loads the editor's (preview's createClientBundler bundles both).
 */
export async function bundleClient(options: ClientBundleOptions, given?: TemplateManifest): Promise<ClientBundle> {
  const root = resolve(options.root)
  const manifest = given ?? (await scanTemplates(root))
  const config = createOptions(options, () => manifest)
  const make = async () => {
    const { build } = await import('esbuild')
    const main = await run(options.root, config.importers, () => withEsbuild(() => build(config.main)))
    return { bundle: toBundle({ main }, config, manifest), inputs: metafileInputs(main.metafile, root) }
  }
  if (options.cache === false) return (await make()).bundle
  const { value, blobs } = await cachedBundle({
    dir: join(root, cacheDir('bundles')),
    bundler: import.meta.url,
    name: 'client',
    key: JSON.stringify({ minify: config.main.minify, manifest }),
    check: checkCachedClient,
    make: async () => {
      const { bundle, inputs } = await make()
      const { files, ...value } = bundle
      return { value, inputs, blobs: new Map(files.map((file) => [file.path, file.contents])) }
    },
  })
  return { ...value, files: [...blobs].map(([path, contents]) => ({ path, contents })) }
}

/** A client bundle's assets as the cache holds them: every URL one of its own files under `_site/assets/`. */
function checkCachedClient(value: unknown, files: ReadonlySet<string>): Omit<ClientBundle, 'files'> | undefined {
  if (!isRecord(value)) return undefined
  const isFile = (path: string) => /^[A-Za-z0-9._-]+$/.test(path.slice(ASSETS_DIR.length + 1))
  if (![...files].every((path) => path.startsWith(`${ASSETS_DIR}/`) && isFile(path))) return undefined
  const isUrls = (list: unknown): list is string[] =>
    Array.isArray(list) && list.every((url) => typeof url === 'string' && files.has(url.slice(1)) && url[0] === '/')
  const isUrlRecord = (record: unknown) => isRecord(record) && Object.values(record).every(isUrls)
  const isStrings = (list: unknown): list is string[] =>
    Array.isArray(list) && list.every((item) => typeof item === 'string')
  const isAssets = (assets: unknown): assets is ClientAssets => {
    if (!isRecord(assets) || !isUrls(assets.scripts) || !isUrls(assets.styles)) return false
    if (assets.inlineStyles !== undefined && !isStrings(assets.inlineStyles)) return false
    if (assets.modulePreloads !== undefined && !isUrls(assets.modulePreloads)) return false
    const chunks = assets.templateChunks
    if (chunks === undefined) return true
    if (!isRecord(chunks) || !isUrlRecord(chunks.layouts) || !isUrlRecord(chunks.content)) return false
    if (chunks.texts !== undefined && !isUrlRecord(chunks.texts)) return false
    if (!(['ErrorPage', 'main', 'islands'] as const).every((k) => chunks[k] === undefined || isUrls(chunks[k])))
      return false
    return chunks.client === undefined || isStrings(chunks.client)
  }
  const { assets, hints, texts } = value
  if (!isAssets(assets) || !isStrings(hints) || !isStrings(texts)) return undefined
  return { assets, hints, texts }
}

/** An incremental bundler for watch mode (`site preview`): each `rebuild()` reuses esbuild's work. */
export function createClientBundler(options: ClientBundleOptions): ClientBundler {
  let current: TemplateManifest | undefined
  const config = createOptions(options, () => {
    if (!current) throw new Error('bundler: templates read before rebuild()')
    return current
  })
  type Contexts = [esbuild.BuildContext<BundleOptions>, esbuild.BuildContext<BundleOptions>]
  let contexts: Promise<Contexts> | undefined
  let release: (() => Promise<void>) | undefined
  return {
    async rebuild(given) {
      const manifest = given ?? (await scanTemplates(resolve(options.root)))
      current = manifest
      release ??= holdEsbuild()
      const { context } = await import('esbuild')
      contexts ??= Promise.all([context(config.main), context(config.editor)]).catch((error: unknown) => {
        contexts = undefined
        throw error
      })
      const [main, editor] = await run(options.root, config.importers, () => contexts as Promise<Contexts>)
      const [mainResult, editorResult] = await run(options.root, config.importers, () =>
        Promise.all([main.rebuild(), editor.rebuild()]),
      )
      return toBundle({ main: mainResult, editor: editorResult }, config, manifest)
    },
    async dispose() {
      const pending = contexts
      contexts = undefined
      const created = await pending?.catch(() => undefined)
      await Promise.all(created?.map((ctx) => ctx.dispose()) ?? [])
      await release?.()
      release = undefined
    },
  }
}
