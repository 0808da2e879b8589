/**
 * The files of a new site project: the engine's demo site (templates/, config/, public/) and the files of
 * scaffold/, with the project's name and content API filled in. Reads the engine's folders; writes nothing.
 */
import { readdir, readFile } from 'node:fs/promises'
import { basename, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { errors } from '../errors.js'
import { ENGINE_PACKAGE } from '../shared/modules.js'

/** One file of the new project: its path relative to the project, forward slashes. */
export interface ScaffoldFile {
  path: string
  contents: string | Uint8Array
}

export interface ScaffoldOptions {
  /** The new project's folder (absolute): its name names the npm package. */
  dir: string
  /** Content API origin for `api.baseUrl`; the bundled demo API when undefined. */
  apiUrl?: string
  /** The engine's package root. @default the root of the running engine */
  engineRoot?: string
}

/** The folders of the demo site copied as they are. */
const DEMO_FOLDERS = ['templates', 'config', 'public'] as const
/** scaffold/ file -> path in the new project (npm leaves `.gitignore` files out of packages). */
const SCAFFOLD_FILES: Readonly<Record<string, string>> = {
  'README.md': 'README.md',
  gitignore: '.gitignore',
  'tsconfig.json': 'tsconfig.json',
  'publish.yml': '.github/workflows/publish.yml',
}
const CONFIG_FILE = 'config/site.config.ts'
/** The demo's API line in config/site.config.ts (with its comment), replaced by `apiUrl`. */
const DEMO_API_RE = /\n *\/\/ The bundled demo content API[^\n]*\n( *)baseUrl: '[^']*',/

/** dist/init/ and src/init/ both sit two folders below the package root. */
const engineRootDir = (): string => fileURLToPath(new URL('../../', import.meta.url))

/** An npm package name from a folder name: `My Site!` -> `my-site`, `Café Zürich` -> `cafe-zurich` (accents dropped). */
function toPackageName(dir: string): string {
  const name = basename(dir)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-._]+|[-_.]+$/g, '')
  return name.slice(0, 214) || 'my-site'
}

/** What a new project takes from the engine's own package.json. */
interface EnginePackage {
  version: string
  engines: { node: string }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  // Regular files only: a link in the engine's folders is not the project's to copy.
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

/** The project's package.json: it depends on this engine's release and runs on the Node.js versions it does. */
function packageJson(name: string, engine: EnginePackage): string {
  const pkg = {
    name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      dev: 'site preview',
      build: 'site build',
      serve: 'site serve',
      publish: 'site publish',
      'demo-api': 'site demo-api',
      typecheck: 'tsc --noEmit',
    },
    dependencies: { [ENGINE_PACKAGE]: `^${engine.version}` },
    devDependencies: { '@types/react': '^19.0.0', '@types/react-dom': '^19.0.0', typescript: '^5.9.0' },
    engines: { node: engine.engines.node },
    // esbuild's install step checks its binary; npm asks before running install steps.
    allowScripts: { esbuild: true },
  }
  return `${JSON.stringify(pkg, null, 2)}\n`
}

/** A single-quoted TypeScript string of `text`, as the rest of the scaffold's config writes its strings. */
const singleQuoted = (text: string): string =>
  `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`

/** config/site.config.ts with `api.baseUrl` set to `apiUrl`. */
function withApiUrl(config: string, apiUrl: string): string {
  if (!DEMO_API_RE.test(config)) throw errors.usage(`${CONFIG_FILE} of the engine has no demo api.baseUrl to replace`)
  return config.replace(DEMO_API_RE, (_line, indent: string) => `\n${indent}baseUrl: ${singleQuoted(apiUrl)},`)
}

/** Every file of a new site project, read from the engine's package. */
export async function listScaffoldFiles(options: ScaffoldOptions): Promise<ScaffoldFile[]> {
  const root = options.engineRoot ?? engineRootDir()
  const name = toPackageName(options.dir)
  const files: ScaffoldFile[] = []
  for (const folder of DEMO_FOLDERS) {
    for (const file of await listFiles(join(root, folder))) {
      const path = relative(root, file).split(sep).join('/')
      const contents = await readFile(file)
      files.push({
        path,
        contents:
          path === CONFIG_FILE && options.apiUrl ? withApiUrl(contents.toString('utf8'), options.apiUrl) : contents,
      })
    }
  }
  for (const [source, path] of Object.entries(SCAFFOLD_FILES)) {
    const text = await readFile(join(root, 'scaffold', source), 'utf8')
    files.push({ path, contents: text.replaceAll('{{name}}', name) })
  }
  const engine = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as EnginePackage
  files.push({ path: 'package.json', contents: packageJson(name, engine) })
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}
