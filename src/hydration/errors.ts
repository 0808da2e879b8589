/**
 * One error for templates that do not compile, whichever bundle meets them first (the browser
 * bundle or the Node registry, which a build runs side by side): TEMPLATES_INVALID, each problem
 * with its file, line and column relative to the project root, so that the message and the
 * exit code (2) are the same whichever finished first.
 */
import { join, relative, resolve } from 'node:path'
import type { BuildFailure, Message } from 'esbuild'
import { SiteError } from '../errors.js'
import { isInsideOrEqual } from '../project/inside.js'

export const isBuildFailure = (error: unknown): error is BuildFailure =>
  error instanceof Error && Array.isArray((error as BuildFailure).errors)

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

/**
 * TEMPLATES_INVALID for an esbuild failure under `root`; other errors as they are. A failure
 * located only in the engine's own sources (`engineSources`, bundled into the browser client
 * with the templates) is the engine's: it stays a plain error (exit code 1, not 2).
 */
export function toTemplatesError(root: string, error: unknown, engineSources?: string): unknown {
  if (!isBuildFailure(error)) return error
  for (const message of error.errors) ownLocation(message)
  const details = error.errors.map((message) => `  ${describe(root, message)}`).join('\n')
  const located = error.errors.flatMap((message) => (message.location ? [resolve(root, message.location.file)] : []))
  if (engineSources && located.length > 0 && located.every((file) => isInsideOrEqual(engineSources, file)))
    return new Error(`Bundling the browser client failed:\n${details}`, { cause: error })
  return new SiteError('TEMPLATES_INVALID', `Templates failed to compile:\n${details}`, { cause: error })
}
