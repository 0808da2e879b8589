/**
 * The project's `public/` folder, listed once by the one lister that `site build` copies
 * from and `site preview` serves from, so that both publish the same files.
 * - regular files only: a symbolic link is never followed (it could point anywhere);
 * - no dot files or dot folders (`.env`, `.git/`, `.DS_Store`), except `.well-known/`
 *   (`security.txt`, `assetlinks.json`), which hosts publish as a standard.
 */
import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { isOutputFilePath } from '../shared/layout.js'

export interface PublicFiles {
  /** Relative paths, `/` separated, sorted: `sw.js`, `.well-known/security.txt`, `icons/a b.png`. */
  files: string[]
  /** What was left out, and why (the build lists them in its report). */
  skipped: Array<{ path: string; reason: string }>
}

const WELL_KNOWN = '.well-known'

/** Lists `dir` (the project's `public/`); a missing folder lists nothing. */
export async function listPublicFiles(dir: string): Promise<PublicFiles> {
  const files: string[] = []
  const skipped: PublicFiles['skipped'] = []
  const walk = async (rel: string): Promise<void> => {
    let entries: Dirent[]
    try {
      entries = await readdir(join(dir, rel), { withFileTypes: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && rel === '') return
      throw error
    }
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name
      if (entry.name.startsWith('.') && path !== WELL_KNOWN)
        skipped.push({ path, reason: `a dot file is not published (only ${WELL_KNOWN}/ is)` })
      else if (entry.isDirectory()) await walk(path)
      else if (!entry.isFile()) skipped.push({ path, reason: 'not a regular file (symbolic links are not followed)' })
      // the build state records every file the build writes: a name it cannot hold would leave the output unreadable
      else if (!isOutputFilePath(path))
        skipped.push({ path, reason: 'a name with a control character, a line break or a backslash is not published' })
      else files.push(path)
    }
  }
  await walk('')
  files.sort()
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return { files, skipped }
}
