/**
 * The chunk plan of the browser bundle, read from esbuild's metafile: the scripts, styles
 * and modulepreloads of an entry, and for every lazily loaded template (each layout, content
 * element, texts file, the error page, `site:templates/main` and the islands code) the URLs of
 * its chunk and of the chunks it imports beyond what every page loads (`TemplateChunks`).
 */
import { basename, dirname, extname, relative, resolve, sep } from 'node:path'
import type * as esbuild from 'esbuild'
import { INLINE_STYLES_MAX_BYTES } from '../shared/constants.js'
import type { ClientAssets, TemplateChunks } from '../shared/contract.js'
import { ASSETS_DIR } from '../shared/layout.js'
import { TEMPLATE_LAYOUT, type TemplateManifest } from './manifest.js'
import { LAZY_NAMESPACE } from './plugins.js'
import { MAIN_TEMPLATES_MODULE } from './registry-source.js'

export interface ChunkPlanInput {
  metafile: esbuild.Metafile
  outputFiles: readonly esbuild.OutputFile[]
  /** The build's `outdir` and `absWorkingDir`: metafile paths are relative to the latter. */
  outdir: string
  absWorkingDir: string
  /** The entry point's name (`entry`, `editor`). */
  entry: string
  /** The templates of the bundle: with it, the template chunks are planned (the visitor entry only). */
  manifest?: TemplateManifest
  /** The islands module (src/client/islands.tsx), whose chunk hydrates the islands of a page. */
  islandsModule?: string
}

export interface ChunkPlan {
  assets: ClientAssets
  /** Output files, paths relative to the output folder (`_site/assets/entry-AB12CD.js`). */
  files: Array<{ path: string; contents: Uint8Array }>
}

/** Asset URLs of one entry (and its template chunks) and the output files of its build. */
export function planChunks(input: ChunkPlanInput): ChunkPlan {
  const { outputs } = input.metafile
  const toRelative = (file: string) => relative(input.outdir, resolve(input.absWorkingDir, file)).split(sep).join('/')
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
  const js = entryOutput(input.entry, '.js')
  if (!js) throw new Error(`bundleClient: esbuild produced no ${input.entry} script`)
  const css = [outputs[js]?.cssBundle, input.manifest ? entryOutput('styles', '.css') : undefined].filter(
    (f): f is string => f !== undefined,
  )
  const preloads = staticImports(js)
  const assets: ClientAssets = { scripts: [toUrl(js)], styles: css.map(toUrl), modulePreloads: preloads.map(toUrl) }
  const cssTexts = css.map(
    (file) => input.outputFiles.find((out) => out.path === resolve(input.absWorkingDir, file))?.text,
  )
  const cssBytes = cssTexts.reduce(
    (sum, text) => sum + (text === undefined ? Number.POSITIVE_INFINITY : Buffer.byteLength(text)),
    0,
  )
  // The files are written all the same: a page of an older build, still open, may ask for them.
  if (css.length > 0 && cssBytes <= INLINE_STYLES_MAX_BYTES) {
    assets.inlineStyles = cssTexts as string[]
    assets.styles = []
  }
  if (input.manifest) {
    const loaded = new Set([js, ...preloads])
    const templateChunks: TemplateChunks = { layouts: {}, content: {}, texts: {}, client: [...input.manifest.client] }
    const root = input.absWorkingDir
    const dirs = (['layouts', 'content', 'texts'] as const).map(
      (kind) => [kind, resolve(root, TEMPLATE_LAYOUT[kind])] as const,
    )
    const templatesDir = resolve(root, TEMPLATE_LAYOUT.dir)
    for (const file of Object.keys(outputs).sort()) {
      const entryPoint = outputs[file]?.entryPoint ?? ''
      if (!entryPoint.startsWith(`${LAZY_NAMESPACE}:`)) continue
      // a wrapper is named by its module's path from the project root (plugins.ts), or `site:templates/main`
      const path = entryPoint.slice(LAZY_NAMESPACE.length + 1)
      const source = path === MAIN_TEMPLATES_MODULE ? path : resolve(root, path)
      const urls = () => [file, ...staticImports(file)].filter((chunk) => !loaded.has(chunk)).map(toUrl)
      const name = basename(source, extname(source))
      const kind = dirs.find(([, dir]) => dirname(source) === dir)?.[0]
      if (kind) (templateChunks[kind] as Record<string, string[]>)[name] = urls()
      else if (dirname(source) === templatesDir && name === 'ErrorPage') templateChunks.ErrorPage = urls()
      else if (source === MAIN_TEMPLATES_MODULE) templateChunks.main = urls()
      else if (input.islandsModule && source === input.islandsModule) templateChunks.islands = urls()
    }
    assets.templateChunks = templateChunks
  }
  return {
    assets,
    files: input.outputFiles.map((file) => ({
      path: `${ASSETS_DIR}/${relative(input.outdir, file.path).split(sep).join('/')}`,
      contents: file.contents,
    })),
  }
}
