/**
 * One error for templates that do not compile, whichever bundle meets them first (the browser
 * bundle or the Node registry, which a build runs side by side): TEMPLATES_INVALID, each problem
 * with its file, line and column relative to the project root, so that the message and the
 * exit code (2) are the same whichever finished first.
 */
import { isBuiltin } from 'node:module'
import { join, relative, resolve } from 'node:path'
import type { BuildFailure, Message, Plugin } from 'esbuild'
import { SiteError } from '../errors.js'
import { isInsideOrEqual } from '../project/inside.js'

export const isBuildFailure = (error: unknown): error is BuildFailure =>
  error instanceof Error && Array.isArray((error as BuildFailure).errors)

/** Most problems a TEMPLATES_INVALID message lists; it counts the others. */
const LISTED_PROBLEMS = 20

const describe = (root: string, message: Message): string => {
  const at = message.location
    ? `${relative(root, join(root, message.location.file)).split('\\').join('/')}:${message.location.line}:${message.location.column + 1}: `
    : ''
  return `${at}${message.text}`
}

/** A module the engine generates (`site-lazy-chunk:…`, `site-templates:…`): a namespace of two letters or more, not a drive. */
const GENERATED_MODULE_RE = /^[a-z][a-z0-9-]+:/
const NO_DEFAULT_EXPORT_RE = /^No matching export in "[^"]+" for import "default"$/

/**
 * A problem esbuild located in a module the engine generates around the templates says nothing of the
 * template: its line and column are the generated module's. It is told without them, by the file it names;
 * a template without a default export (the one a newcomer meets first) also says what is missing.
 */
function ownLocation(message: Message): void {
  if (!message.location || !GENERATED_MODULE_RE.test(message.location.file)) return
  message.location = null
  if (NO_DEFAULT_EXPORT_RE.test(message.text))
    message.text += ' (a template is the default export of its file: export default function …)'
}

/** Which file first imported each npm package into a bundle: package name -> the importer's absolute path. */
export type PackageImporters = Map<string, string>

/** `sharp/lib` -> `sharp`, `@scope/name/x` -> `@scope/name`: the package of a bare specifier's parts. */
const packageName = (parts: readonly string[]): string | undefined =>
  parts[0]?.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]

/** The package a file under node_modules/ belongs to (the innermost one); undefined for a file of the project. */
function packageOfFile(file: string): string | undefined {
  const parts = file.split(/[\\/]/)
  const at = parts.lastIndexOf('node_modules')
  return at < 0 ? undefined : packageName(parts.slice(at + 1))
}

/** esbuild plugin: records who first imported each package, so that a problem inside node_modules/ names the template behind it. */
export function packageImportersPlugin(importers: PackageImporters): Plugin {
  return {
    name: 'site-package-importers',
    setup(pluginBuild) {
      pluginBuild.onStart(() => importers.clear())
      pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = packageName(args.path.split('/'))
        if (name && args.importer && !importers.has(name)) importers.set(name, args.importer)
        return undefined
      })
    },
  }
}

/** The file of the project whose import (of package `name`) brought `file`, under node_modules/, into the bundle. */
function importedBy(file: string, importers: PackageImporters): { name: string; importer: string } | undefined {
  const seen = new Set<string>()
  for (let name = packageOfFile(file); name !== undefined && !seen.has(name); ) {
    seen.add(name)
    const importer = importers.get(name)
    if (importer === undefined) return undefined
    const next = packageOfFile(importer)
    if (next === undefined) return { name, importer }
    name = next
  }
  return undefined
}

const UNRESOLVED_RE = /^Could not resolve "([^"]+)"$/
const NO_LOADER_RE = /^No loader is configured for "[^"]+" files/

/**
 * esbuild says only `Could not resolve "node:fs"` of a Node built-in in the browser bundle, and of a package
 * that needs one, names files under node_modules/ alone: says what the module is and which template imports it.
 * Of an imported image it says only that it has no loader: says where such a file goes.
 */
function explain(root: string, message: Message, importers: PackageImporters | undefined): void {
  const hints: string[] = []
  const unresolved = UNRESOLVED_RE.exec(message.text)?.[1]
  if (unresolved && isBuiltin(unresolved)) hints.push('a Node built-in module: templates run in the browser too')
  if (NO_LOADER_RE.test(message.text))
    hints.push(
      'templates import code, .css and .json: put the file in public/ and use its URL, /logo.svg for public/logo.svg',
    )
  const from = message.location && importers ? importedBy(resolve(root, message.location.file), importers) : undefined
  if (from) hints.push(`"${from.name}" is imported by ${relative(root, from.importer).split('\\').join('/')}`)
  if (hints.length > 0) message.text += ` (${hints.join('; ')})`
}

/**
 * TEMPLATES_INVALID for an esbuild failure under `root`; other errors as they are. A failure
 * located only in the engine's own sources (`engineSources`, bundled into the browser client
 * with the templates) is the engine's: it stays a plain error (exit code 1, not 2). `importers`: those
 * packageImportersPlugin recorded in the failed bundle.
 */
export function toTemplatesError(
  root: string,
  error: unknown,
  engineSources?: string,
  importers?: PackageImporters,
): unknown {
  if (!isBuildFailure(error)) return error
  for (const message of error.errors) {
    ownLocation(message)
    explain(root, message, importers)
  }
  // one cause (a template importing a package that needs Node) can fail hundreds of modules: the first ones tell it
  const listed = error.errors.slice(0, LISTED_PROBLEMS).map((message) => `  ${describe(root, message)}`)
  const more = error.errors.length - listed.length
  const details = [...listed, ...(more > 0 ? [`  … and ${more} more`] : [])].join('\n')
  const located = error.errors.flatMap((message) => (message.location ? [resolve(root, message.location.file)] : []))
  if (engineSources && located.length > 0 && located.every((file) => isInsideOrEqual(engineSources, file)))
    return new Error(`Bundling the browser client failed:\n${details}`, { cause: error })
  return new SiteError('TEMPLATES_INVALID', `Templates failed to compile:\n${details}`, { cause: error })
}
