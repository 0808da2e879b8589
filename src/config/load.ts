import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, extname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Loader, Plugin } from 'esbuild'
import { errors, messageOf, SiteError } from '../errors.js'
import { cachedBundle, metafileInputs, storedTexts, textOf } from '../project/bundle-cache.js'
import { placeModule } from '../project/module-file.js'
import { withEsbuild } from '../shared/esbuild-service.js'
import { cacheDir } from '../shared/layout.js'
import { CONFIG_MODULE } from '../shared/modules.js'
import { CONFIG_FILES } from './defaults.js'
import { resolvePublish, resolveSites } from './resolve.js'
import type { InlineConfig, ResolvedConfig, UserConfig } from './types.js'
import { validateUserConfig } from './validate.js'

const DEFINE_MODULE = fileURLToPath(new URL('./define.js', import.meta.url))

/**
 * What each file of a config reads as `import.meta.url`, `.filename` and `.dirname` (see importMetaOfFile): the
 * name each is defined as, and its value for a file.
 */
const IMPORT_META = [
  { expression: 'import.meta.url', name: '__siteConfigImportMetaUrl', of: (file: string) => pathToFileURL(file).href },
  { expression: 'import.meta.filename', name: '__siteConfigImportMetaFilename', of: (file: string) => file },
  { expression: 'import.meta.dirname', name: '__siteConfigImportMetaDirname', of: dirname },
]
const LOADERS: Record<string, Loader> = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx' }

/**
 * The bundled config runs from the project's cache folder (`.site/config/`), so a config that reads a file beside
 * it (`new URL('./hosts.json', import.meta.url)`) read it there. Each file of the config that names `import.meta`
 * gets its own place instead, as Node would give it: the declarations go on its first line, so that line numbers
 * in errors stay the file's.
 */
const importMetaOfFile: Plugin = {
  name: 'site-config-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
      if (args.path.split(/[\\/]/).includes('node_modules')) return undefined
      const text = await readFile(args.path, 'utf8')
      if (!text.includes('import.meta')) return undefined
      const declarations = IMPORT_META.map(({ name, of }) => `const ${name} = ${JSON.stringify(of(args.path))};`)
      return { contents: `${declarations.join(' ')} ${text}`, loader: LOADERS[extname(args.path)] ?? 'js' }
    })
  },
}

/** Finds the config file: `--config` as given, else the first default name that exists. */
function findConfigFile(root: string, configFile?: string): string {
  if (configFile) {
    const file = resolve(root, configFile)
    if (!existsSync(file)) throw new SiteError('CONFIG_NOT_FOUND', `Config file not found: ${file}`)
    if (!['.ts', '.mts', '.mjs', '.js', '.json'].includes(extname(file)))
      throw new SiteError('CONFIG_NOT_FOUND', `Config file ${file} must end in .ts, .mjs, .js or .json`)
    return file
  }
  const found = configFileIn(root)
  if (!found) {
    // run in a folder of a project (templates/, config/): --config alone would not help, templates/ is read from root
    const project = projectFolderAbove(root)
    throw new SiteError(
      'CONFIG_NOT_FOUND',
      `No config file found in ${root} (looked for ${CONFIG_FILES.join(', ')}); ${project ? `run the command in the project's folder, ${project}` : 'pass --config FILE'}`,
    )
  }
  return found
}

/** The first config file of the default names in `dir`. */
const configFileIn = (dir: string): string | undefined =>
  CONFIG_FILES.map((name) => join(dir, name)).find((file) => existsSync(file))

/**
 * The nearest folder above `dir` that holds a config file: a command run in a folder of a project (`templates/`)
 * is told to run in it, rather than taking `dir` for a project of no config.
 */
export const projectFolderAbove = (dir: string): string | undefined =>
  ancestorsOf(dir).find((folder) => configFileIn(folder))

/** The folders above `dir`, nearest first. */
function ancestorsOf(dir: string): string[] {
  const parent = dirname(dir)
  return parent === dir ? [] : [parent, ...ancestorsOf(parent)]
}

/**
 * Reads a config file. TypeScript and ESM files are bundled by esbuild into
 * the project's cache folder (`.site/config/`) (a new name per content, so a reload sees changes).
 */
async function loadUserConfig(file: string, root: string): Promise<unknown> {
  if (extname(file) === '.json') {
    const text = await readFile(file, 'utf8')
    try {
      return JSON.parse(text)
    } catch (cause) {
      throw errors.configInvalid(file, [{ path: '(file)', message: `not valid JSON: ${(cause as Error).message}` }])
    }
  }
  const bundle = async () => {
    try {
      const { build } = await import('esbuild')
      const result = await withEsbuild(() =>
        build({
          entryPoints: [file],
          bundle: true,
          write: false,
          metafile: true,
          format: 'esm',
          platform: 'node',
          target: 'node20',
          logLevel: 'silent',
          packages: 'external',
          alias: { [CONFIG_MODULE]: DEFINE_MODULE },
          define: Object.fromEntries(IMPORT_META.map(({ expression, name }) => [expression, name])),
          plugins: [importMetaOfFile],
        }),
      )
      // esbuild's working folder is the process's own (no absWorkingDir given)
      const inputs = metafileInputs(result.metafile, process.cwd())
      return { value: null, inputs, blobs: new Map([['code', result.outputFiles[0]!.text]]) }
    } catch (cause) {
      const failures = (cause as { errors?: Array<{ text: string; location?: { line: number; file: string } }> }).errors
      // esbuild names files from its working folder, the process's: made absolute, they hold for any project root
      for (const failure of failures ?? []) if (failure.location) failure.location.file = resolve(failure.location.file)
      // every failure (two missing imports are two lines), each at its line of the config or of the file it imports
      const where = ({ location }: { location?: { line: number; file: string } }) => {
        if (!location) return ''
        return location.file === file
          ? `line ${location.line}: `
          : `${relative(root, location.file)} line ${location.line}: `
      }
      const issues = failures?.length
        ? failures.map((failure) => ({ path: '(file)', message: `${where(failure)}${failure.text}` }))
        : [{ path: '(file)', message: messageOf(cause) }]
      throw errors.configInvalid(file, issues, cause)
    }
  }
  // a config that bundles as it did last time is taken from the bundle cache (the file and what it imports unchanged)
  const { blobs } = await cachedBundle({
    dir: join(root, cacheDir('bundles')),
    name: 'config',
    bundler: import.meta.url,
    key: JSON.stringify({ file, define: DEFINE_MODULE }),
    check: storedTexts('code'),
    make: bundle,
  })
  const code = textOf(blobs, 'code')
  const out = join(
    root,
    cacheDir('config'),
    `config-${createHash('sha256').update(code).digest('hex').slice(0, 12)}.mjs`,
  )
  await placeModule(out, code)
  try {
    return await evaluated(out)
  } catch (cause) {
    // Node names the module it ran (`… imported from <bundle>`): the user's file is the config, not its bundle
    const message = messageOf(cause).replaceAll(pathToFileURL(out).href, file).replaceAll(out, file)
    throw errors.configInvalid(file, [{ path: '(file)', message: `failed to evaluate: ${message}` }])
  }
}

/**
 * The default export of the config's bundle, awaited (a promise: secrets read at load). Rejects once nothing is left
 * that could settle it (the event loop ran empty: `await new Promise(() => {})`), where the command would end
 * without a word or, with a port keeping its thread alive, wait for ever.
 */
function evaluated(bundle: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const stalled = () => reject(new Error('it awaits something that never settles, and nothing is left to settle it'))
    process.once('beforeExit', stalled)
    import(pathToFileURL(bundle).href)
      .then((mod: { default?: unknown }) => mod.default)
      .then(resolve, reject)
      .finally(() => process.off('beforeExit', stalled))
  })
}

/** Loads, validates and resolves the configuration: the only way code gets a `ResolvedConfig`. */
export async function resolveConfig(inline: InlineConfig = {}): Promise<ResolvedConfig> {
  const root = resolve(inline.root ?? process.cwd())
  const configFile = findConfigFile(root, inline.configFile)
  const user = await loadUserConfig(configFile, root)
  const issues = validateUserConfig(user)
  if (issues.length) throw errors.configInvalid(configFile, issues)
  const sites = resolveSites(user as UserConfig, inline, configFile)
  return { root, configFile, sites, publish: resolvePublish(user as UserConfig, configFile) }
}
