/**
 * The esbuild plugins of the template flow: `templatesPlugin` makes the generated
 * `site:templates…` modules importable (from the manifest read once per bundle), and
 * `lazyChunksPlugin` shapes how lazily loaded templates are split into chunks.
 */
import { dirname, isAbsolute, join, relative } from 'node:path'
import type * as esbuild from 'esbuild'
import { RUNTIME_MODULE_RE } from '../shared/modules.js'
import { TEMPLATE_LAYOUT, type TemplateManifest } from './manifest.js'
import { isTemplatesModule, LAZY_TEMPLATES_MODULE, registrySource } from './registry-source.js'

export interface TemplatesPluginOptions {
  /** Resolve `typo3-headless-site/runtime` to this file as well (the browser bundle: the client's own runtime copy). */
  runtime?: string
}

/**
 * esbuild plugin: `import registry from 'site:templates'` gives the TemplateRegistry of the
 * manifest's templates; `site:templates/lazy` and `site:templates/main` the browser's modules.
 * `manifest` is asked at each load: a watching bundler hands in the manifest of its current rebuild.
 */
export function templatesPlugin(
  manifest: () => TemplateManifest,
  options: TemplatesPluginOptions = {},
): esbuild.Plugin {
  return {
    name: 'site-templates',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^site:templates(\/(lazy|main))?$/ }, (args) => ({
        path: args.path,
        namespace: 'site-templates',
      }))
      pluginBuild.onLoad({ filter: /.*/, namespace: 'site-templates' }, (args) => {
        const current = manifest()
        const { root } = current
        const module = isTemplatesModule(args.path) ? args.path : undefined
        if (!module) return undefined
        return {
          contents: registrySource(current, module),
          loader: 'js',
          resolveDir: root,
          // The lazy module lists the templates marked 'use client': a change of directive regenerates it.
          watchFiles:
            module === LAZY_TEMPLATES_MODULE
              ? [...current.layouts, ...current.content].map((f) => f.file).concat(Object.values(current.singles))
              : [],
          watchDirs: [
            join(root, TEMPLATE_LAYOUT.dir),
            join(root, TEMPLATE_LAYOUT.layouts),
            join(root, TEMPLATE_LAYOUT.content),
            join(root, TEMPLATE_LAYOUT.texts),
          ],
        }
      })
      const runtime = options.runtime
      if (runtime) pluginBuild.onResolve({ filter: RUNTIME_MODULE_RE }, () => ({ path: runtime }))
    },
  }
}

/** The namespace of the wrappers lazyChunksPlugin puts around lazily imported modules (chunks.ts reads it back). */
export const LAZY_NAMESPACE = 'site-lazy-chunk'
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
 * it. Modules for which `withoutRuntime` is true (texts files: data loaded before
 * hydration; `site:templates/main`: loaders only) are wrapped without it.
 */
export function lazyChunksPlugin(
  entry: string,
  runtime: string,
  withoutRuntime: (path: string) => boolean,
): esbuild.Plugin {
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
        // A wrapper is named by its module's path from the project root: esbuild hashes that name into the chunk
        // names, and an absolute one renamed every chunk, so every page, in a checkout in another folder.
        const root = pluginBuild.initialOptions.absWorkingDir ?? process.cwd()
        return {
          path: isAbsolute(resolved.path) ? relative(root, resolved.path) : resolved.path,
          namespace: LAZY_NAMESPACE,
          pluginData: { template: args.namespace === 'site-templates', file: resolved.path },
        }
      })
      pluginBuild.onLoad({ filter: /.*/, namespace: LAZY_NAMESPACE }, (args) => {
        const { template, file: path } = args.pluginData as { template: boolean; file: string }
        const target = JSON.stringify(path)
        const imports = [entry, ...(withoutRuntime(path) ? [] : [runtime])].map(
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
          resolveDir: dirname(isAbsolute(path) ? path : entry),
        }
      })
    },
  }
}
