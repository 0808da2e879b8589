/**
 * The TemplateRegistry the server renders with (Node only): `site:templates` bundled with
 * esbuild, React and `typo3-headless-site/runtime` left external but pointed at the engine's own copies, so
 * templates and engine share one React and one context; written to the project's cache under
 * a name per content (a running preview imports changed templates again) and imported.
 */
import { createHash } from 'node:crypto'
import { createRequire } from 'node:module'
import { extname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Plugin } from 'esbuild'
import { SiteError } from '../errors.js'
import { cachedBundle, metafileInputs, storedTexts, textOf } from '../project/bundle-cache.js'
import { placeModule } from '../project/module-file.js'
import type { TemplateRegistry } from '../shared/contract.js'
import { withEsbuild } from '../shared/esbuild-service.js'
import { cacheDir as cacheDirOf } from '../shared/layout.js'
import { RUNTIME_MODULE_RE } from '../shared/modules.js'
import { toTemplatesError } from './errors.js'
import { createTemplateLocator } from './locate.js'
import { scanTemplates, TEMPLATE_LAYOUT, type TemplateFile, type TemplateManifest } from './manifest.js'
import { registrySource, TEMPLATES_MODULE } from './registry-source.js'

const REACT_RE = /^(react|react-dom)(\/.*)?$/

/**
 * The engine's own runtime: dist/runtime/index.js next to the running dist/hydration/node-registry.js
 * (or src/runtime/index.ts when the engine runs from source, as under vitest).
 */
const engineRuntimeUrl = (): string =>
  new URL(`../runtime/index${extname(fileURLToPath(import.meta.url))}`, import.meta.url).href

function nodeExternalsPlugin(runtimeUrl: string): Plugin {
  const require = createRequire(import.meta.url)
  return {
    name: 'site-node-externals',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: RUNTIME_MODULE_RE }, () => ({ path: runtimeUrl, external: true }))
      pluginBuild.onResolve({ filter: REACT_RE }, (args) => ({
        path: pathToFileURL(require.resolve(args.path)).href,
        external: true,
      }))
    },
  }
}

export interface LoadTemplatesOptions {
  /** Folder for the bundled registry files (one content-hashed file per templates state). @default .site/templates under the root */
  cacheDir?: string
  /** URL the templates' `typo3-headless-site/runtime` is loaded from; the engine's own copy by default. */
  runtimeUrl?: string
  /** The templates as already read (preview reads them once for both bundles); read from `root` otherwise. */
  manifest?: TemplateManifest
  /**
   * Take the bundle from the project's `.site/bundles/` when the files it read are as they were, and store a new
   * one there (bundle-cache.ts).
   * @default true
   */
  cache?: boolean
}

/** Bundles templates/ for Node and imports the registry. */
export async function loadTemplates(root: string, options: LoadTemplatesOptions = {}): Promise<TemplateRegistry> {
  const manifest = options.manifest ?? (await scanTemplates(root))
  const cacheDir = options.cacheDir ?? join(root, cacheDirOf('templates'))
  const absRoot = resolve(root)
  const runtimeUrl = options.runtimeUrl ?? engineRuntimeUrl()
  const bundle = async () => {
    try {
      const { build } = await import('esbuild')
      const result = await withEsbuild(() =>
        build({
          stdin: {
            contents: registrySource(manifest, TEMPLATES_MODULE),
            resolveDir: root,
            loader: 'js',
            sourcefile: TEMPLATES_MODULE,
          },
          absWorkingDir: absRoot,
          bundle: true,
          write: false,
          metafile: true,
          // Not written (write: false): names the map's folder, which its sources are relative to. The map
          // names a template that throws by file and line (locate.ts); the code carries no reference to it.
          outfile: join(cacheDir, 'templates.mjs'),
          sourcemap: 'external',
          sourcesContent: false,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          jsx: 'automatic',
          loader: { '.css': 'empty' },
          logLevel: 'silent',
          plugins: [nodeExternalsPlugin(runtimeUrl)],
        }),
      )
      const code = result.outputFiles.find((out) => out.path.endsWith('.mjs'))?.text ?? ''
      const map = result.outputFiles.find((out) => out.path.endsWith('.map'))?.text ?? ''
      // the registry module itself (`site:templates`) is made from the manifest, which is in the key
      return {
        value: null,
        inputs: metafileInputs(result.metafile, absRoot),
        blobs: new Map([
          ['code', code],
          ['map', map],
        ]),
      }
    } catch (error) {
      throw toTemplatesError(root, error)
    }
  }
  const { blobs } =
    options.cache === false
      ? await bundle()
      : await cachedBundle({
          dir: join(absRoot, cacheDirOf('bundles')),
          bundler: import.meta.url,
          name: 'templates',
          key: JSON.stringify({ manifest, runtimeUrl, cacheDir }),
          check: storedTexts('code', 'map'),
          make: bundle,
        })
  const code = textOf(blobs, 'code')
  const mapText = textOf(blobs, 'map')
  const file = join(cacheDir, `templates-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`)
  await placeModule(file, code)
  let registry: unknown
  const bundleUrl = pathToFileURL(file).href
  const locate = mapText ? createTemplateLocator({ root, bundleUrl, mapText }) : undefined
  try {
    registry = ((await import(bundleUrl)) as { default: unknown }).default
  } catch (error) {
    // A template that throws as it loads: named by its file and line, as a render failure is (preview's overlay shows the code).
    const at = locate?.(error)
    throw Object.assign(
      new SiteError(
        'TEMPLATES_INVALID',
        `Templates failed to load: ${(error as Error)?.message ?? String(error)}${at ? ` (at ${at.file}:${at.line}:${at.column})` : ''}`,
        { cause: error },
      ),
      at ? { at } : {},
    )
  }
  const checked = checkRegistry(registry, manifest)
  return locate ? { ...checked, locate } : checked
}

const isComponent = (value: unknown): boolean =>
  typeof value === 'function' || (typeof value === 'object' && value !== null && '$$typeof' in value)

/** An `async function` component: React cannot render it to a string, and says so without naming it. */
const isAsync = (value: unknown): boolean =>
  typeof value === 'function' && Object.prototype.toString.call(value) === '[object AsyncFunction]'

/** Checks what each file of `manifest` exports; names a bad one by its path under the project (`templates/ErrorPage.tsx`). */
function checkRegistry(value: unknown, manifest: TemplateManifest): TemplateRegistry {
  const registry = value as TemplateRegistry
  const named = (files: readonly TemplateFile[], name: string) =>
    relative(manifest.root, files.find((file) => file.name === name)?.file ?? name)
  const filesWhere = (test: (component: unknown) => boolean): string[] => [
    ...Object.entries(registry.layouts)
      .filter(([, c]) => test(c))
      .map(([n]) => named(manifest.layouts, n)),
    ...Object.entries(registry.content)
      .filter(([, c]) => test(c))
      .map(([n]) => named(manifest.content, n)),
    ...TEMPLATE_LAYOUT.singles
      .filter((n) => test(registry[n]))
      .map((n) => relative(manifest.root, manifest.singles[n])),
  ]
  const bad = filesWhere((c) => !isComponent(c))
  const async = filesWhere(isAsync)
  const badTexts = Object.entries(registry.texts ?? {})
    .filter(([, texts]) => typeof texts !== 'object' || texts === null)
    .map(([locale]) => named(manifest.texts, locale))
  if (badTexts.length > 0) {
    throw new SiteError('TEMPLATES_INVALID', `Texts files without a default-exported object: ${badTexts.join(', ')}`)
  }
  if (bad.length > 0) {
    throw new SiteError('TEMPLATES_INVALID', `Templates without a default-exported React component: ${bad.join(', ')}`)
  }
  if (async.length > 0) {
    throw new SiteError(
      'TEMPLATES_INVALID',
      `Templates that are async functions (a page renders at once: nothing can be awaited while it renders): ${async.join(', ')}`,
    )
  }
  return registry
}
