/**
 * Where in templates/ an error was thrown, read from its stack through the source map of the bundled
 * registry (Node only). A template that throws while a page renders is then named by file, line and
 * column (`templates/content/Text.tsx:12:11`) in the build's report and in preview, not by the line of a
 * generated file in `.site/templates/`.
 */
import { SourceMap } from 'node:module'
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TemplateLocation } from '../shared/contract.js'
import { TEMPLATE_LAYOUT } from './manifest.js'

/** `at Text (file:///…/templates-3f2a.mjs:12:34)`, `at file:///…` or `at /…/templates-3f2a.mjs:12:34`: where, line and column. */
const FRAME_RE = /\(?((?:file:\/\/)?\/[^\s()]+|[A-Za-z]:\\[^\s()]+):(\d+):(\d+)\)?\s*$/

/**
 * A locator for errors thrown by the code of `bundleUrl` (a `file://` URL), whose source map is `mapText`
 * (esbuild's, its sources relative to the bundle's folder). The map is read on the first error.
 */
export function createTemplateLocator(input: {
  root: string
  bundleUrl: string
  mapText: string
}): (error: unknown) => TemplateLocation | undefined {
  let map: SourceMap | undefined
  const bundlePath = fileURLToPath(input.bundleUrl)
  const bundleDir = dirname(bundlePath)
  const templatesDir = resolve(input.root, TEMPLATE_LAYOUT.dir)
  return (error) => {
    const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : ''
    for (const line of stack.split('\n')) {
      const frame = FRAME_RE.exec(line.trim())
      if (!frame || (frame[1] !== input.bundleUrl && frame[1] !== bundlePath)) continue
      map ??= new SourceMap(JSON.parse(input.mapText))
      const entry = map.findEntry(Number(frame[2]) - 1, Number(frame[3]) - 1) as {
        originalSource?: string
        originalLine?: number
        originalColumn?: number
      }
      if (entry.originalSource === undefined || entry.originalLine === undefined) continue
      const source = entry.originalSource.startsWith('file://')
        ? fileURLToPath(entry.originalSource)
        : resolve(bundleDir, entry.originalSource)
      const inTemplates = relative(templatesDir, source)
      // A frame in React, the runtime or the generated registry: the next one may be the template's.
      if (inTemplates.startsWith(`..${sep}`) || inTemplates === '..' || isAbsolute(inTemplates)) continue
      return {
        file: relative(input.root, source).split(sep).join('/'),
        line: entry.originalLine + 1,
        column: (entry.originalColumn ?? 0) + 1,
      }
    }
    return undefined
  }
}
