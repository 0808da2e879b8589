/**
 * The files of a built output and their content hashes, as its build state records them (read through
 * the build's own reader, never by parsing the state here). Paths come from a file on disk: each is
 * checked before a target sees it.
 */
import { inspectOutDir } from '../build/output.js'
import { loadPrevious } from '../build/previous.js'
import { errors } from '../errors.js'
import { BUILD_STORE_FILE } from '../shared/layout.js'

export interface OutputFiles {
  buildId: string
  /** path -> content hash, every file of the output. */
  files: Map<string, string>
}

/** A plain relative path: segments of printable characters, none empty, `.` or `..`, no backslash. */
const UNSAFE_CHAR_RE = /[\u0000-\u001f\u007f\\]/
export const isPlainRelativePath = (path: string): boolean =>
  path.length > 0 &&
  path.length <= 1024 &&
  !UNSAFE_CHAR_RE.test(path) &&
  path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')

export async function readOutputFiles(outDir: string): Promise<OutputFiles> {
  const contents = await inspectOutDir(outDir)
  if (contents !== 'site-output')
    throw errors.deployNoOutput(outDir, `it is ${contents === 'other' ? 'not a site output' : contents}`)
  const lookup = await loadPrevious(outDir, contents)
  if (lookup.type === 'none') throw errors.deployNoOutput(outDir, lookup.reason)
  const { previous } = lookup
  const files = new Map<string, string>()
  for (const path of previous.filePaths()) {
    const hash = previous.hashOf(path)
    if (!isPlainRelativePath(path) || !hash)
      throw errors.deployNoOutput(
        outDir,
        `its ${BUILD_STORE_FILE} names a file ${JSON.stringify(path.slice(0, 200))} it cannot deploy`,
      )
    files.set(path, hash)
  }
  return { buildId: previous.store.id, files }
}
