/**
 * `import { SafeLink, Gallery } from 'typo3-headless-site/runtime'` in the browser bundle, one import per
 * runtime file: `import { SafeLink } from '…/runtime/SafeLink.tsx'; import { Gallery } from '…/runtime/Gallery.tsx'`.
 *
 * esbuild assigns whole files to chunks by the entry points that reach them, and a barrel
 * reaches every file it re-exports: Header (on every page) importing `SafeLink` from
 * `typo3-headless-site/runtime` put Gallery, Media, Heading… into every page's first-load JavaScript, although
 * only some content element templates use them. Imported straight from their files, runtime
 * modules travel with the code that uses them. Same modules, same instances: only chunking changes.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, extname, resolve } from 'node:path'
import type * as esbuild from 'esbuild'
import { RUNTIME_MODULE, RUNTIME_MODULE_RE } from '../shared/modules.js'

/** Where each value export of the runtime barrel is defined: exported name -> file and name there. */
export type RuntimeExports = ReadonlyMap<string, { file: string; name: string }>

const RE_EXPORT_RE = /export\s*\{([^}]*)\}\s*from\s*(['"])([^'"]+)\2/g
const IMPORT_RE = new RegExp(
  `import\\s*\\{([^}]*)\\}\\s*from\\s*(['"])${RUNTIME_MODULE_RE.source.slice(1, -1)}\\2`,
  'g',
)

/** `SafeLink`, `type X`, `a as b` -> { name, alias } (types: undefined). */
function specifiers(list: string): Array<{ name: string; alias: string }> {
  return list
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '' && !/^type\s/.test(spec))
    .map((spec) => {
      const [name = '', alias = name] = spec.split(/\s+as\s+/)
      return { name, alias }
    })
}

/** The TypeScript file behind a `.js` specifier (`./SafeLink.js` -> `…/SafeLink.tsx`). */
function sourceFile(from: string, specifier: string): string {
  const file = resolve(dirname(from), specifier)
  const stem = file.slice(0, -extname(file).length)
  return [file, `${stem}.ts`, `${stem}.tsx`].find((candidate) => existsSync(candidate)) ?? file
}

/** Reads the re-exports (`export { a, b as c, type T } from './x.js'`) of the runtime barrel. */
export function readRuntimeExports(indexFile: string, source: string): RuntimeExports {
  const map = new Map<string, { file: string; name: string }>()
  for (const match of source.matchAll(RE_EXPORT_RE)) {
    const file = sourceFile(indexFile, match[3] ?? '')
    for (const { name, alias } of specifiers(match[1] ?? '')) map.set(alias, { file, name })
  }
  return map
}

/**
 * Rewrites named value imports from `typo3-headless-site/runtime` to imports from the files that define them;
 * type-only specifiers are left out, names the map does not know stay on the barrel.
 * Line breaks are kept, so esbuild's messages still point at the right lines.
 */
export function splitRuntimeImports(source: string, exports: RuntimeExports): string {
  return source.replace(IMPORT_RE, (whole, list: string, quote: string) => {
    const direct: string[] = []
    const rest: string[] = []
    for (const { name, alias } of specifiers(list)) {
      const target = exports.get(name)
      const binding = alias === name ? name : `${name} as ${alias}`
      if (target)
        direct.push(
          `import { ${target.name === alias ? alias : `${target.name} as ${alias}`} } from ${JSON.stringify(target.file)};`,
        )
      else rest.push(binding)
    }
    if (rest.length > 0) direct.push(`import { ${rest.join(', ')} } from ${quote}${RUNTIME_MODULE}${quote};`)
    return direct.join(' ') + '\n'.repeat(whole.split('\n').length - 1)
  })
}

const LOADERS: Record<string, esbuild.Loader> = {
  '.ts': 'ts',
  '.tsx': 'tsx',
  '.js': 'js',
  '.jsx': 'jsx',
  '.mjs': 'js',
  '.mts': 'ts',
}

/** esbuild plugin of the browser bundle: `typo3-headless-site/runtime` imports of project files split per runtime file. */
export function runtimeImportsPlugin(runtimeIndex: string): esbuild.Plugin {
  let exports: Promise<RuntimeExports> | undefined
  return {
    name: 'site-runtime-imports',
    setup(pluginBuild) {
      // Read per build: watch mode picks up a changed runtime index.
      pluginBuild.onStart(() => {
        exports = undefined
      })
      pluginBuild.onLoad({ filter: /\.(tsx?|jsx?|mjs|mts)$/, namespace: 'file' }, async (args) => {
        if (args.path.includes('/node_modules/') || args.path.includes('\\node_modules\\')) return undefined
        const source = await readFile(args.path, 'utf8')
        if (!source.includes(RUNTIME_MODULE)) return undefined
        exports ??= readFile(runtimeIndex, 'utf8').then((text) => readRuntimeExports(runtimeIndex, text))
        const loader = LOADERS[extname(args.path)]
        return loader
          ? { contents: splitRuntimeImports(source, await exports), loader, resolveDir: dirname(args.path) }
          : undefined
      })
    },
  }
}
