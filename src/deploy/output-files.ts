/**
 * The files of a built output and their content hashes, as its build state records them (read through
 * the build's own reader, never by parsing the state here). Paths come from a file on disk: each is
 * checked before a target sees it.
 */

import { loadPrevious, type OutputMemory } from '../build/incremental/previous.js'
import { verifiedRecordFile } from '../build/incremental/verified.js'
import { inspectOutDir, whyNotSiteOutput } from '../build/output/output.js'
import type { ResolvedSite } from '../config/types.js'
import { errors } from '../errors.js'
import { BUILD_STORE_FILE } from '../shared/layout.js'

export interface OutputFiles {
  buildId: string
  /** path -> content hash, every file of the output. */
  files: ReadonlyMap<string, string>
}

/** A plain relative path: segments of printable characters, none empty, `.` or `..`, no backslash. */
const UNSAFE_CHAR_RE = /[\u0000-\u001f\u007f\\]/
export const isPlainRelativePath = (path: string): boolean =>
  path.length > 0 &&
  path.length <= 1024 &&
  !UNSAFE_CHAR_RE.test(path) &&
  path.split('/').every((part) => part !== '' && part !== '.' && part !== '..')

/**
 * The files a build wrote into `outDir` and their hashes, each checked on disk (a file changed since
 * the build, or missing, refuses the deploy; one the build did not write is never sent). With the memory of
 * the builder that just committed the output (`site publish`), what it committed is taken as it is; with the
 * project it was built in, files as the last build there checked them are not read again (build/incremental/verified.ts).
 */
export async function readOutputFiles(
  outDir: string,
  site: ResolvedSite,
  from: { memory?: OutputMemory; root?: string } = {},
): Promise<OutputFiles> {
  const contents = await inspectOutDir(outDir)
  if (contents !== 'site-output')
    throw errors.deployNoOutput(outDir, contents === 'other' ? await whyNotSiteOutput(outDir) : `it is ${contents}`)
  const { memory, root } = from
  const verifiedRecord = root === undefined ? undefined : verifiedRecordFile(root, outDir)
  const lookup = await loadPrevious(outDir, contents, { site, memory, trustLast: true, verifiedRecord })
  if (lookup.type === 'none') throw errors.deployNoOutput(outDir, lookup.reason)
  const { previous } = lookup
  // the output a builder of this process just committed: every path its own writer's (see OutputMemory)
  if (previous.hashes) return { buildId: previous.store.id, files: previous.hashes }
  const unlisted = new Set(previous.unlisted)
  const files = new Map<string, string>()
  for (const path of previous.disk.files.keys()) {
    if (unlisted.has(path)) continue
    const hash = previous.hashOf(path)
    if (!isPlainRelativePath(path) || !hash)
      throw errors.deployNoOutput(
        outDir,
        `its file ${JSON.stringify(path.slice(0, 200))} is not as its build wrote it (${BUILD_STORE_FILE} records another hash)`,
      )
    files.set(path, hash)
  }
  const missing = previous.changed()
  if (missing.length)
    throw errors.deployNoOutput(outDir, `it lacks ${JSON.stringify(missing[0]!.slice(0, 200))}, which its build wrote`)
  return { buildId: previous.store.id, files }
}
