/**
 * `public/` is copied to the output as it is (sw.js, favicon, …). Symbolic
 * links are not followed: they are listed as skipped.
 */
import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { SkippedItem } from './types.js'
import type { FileWriter } from './write.js'

/** Relative paths of the regular files under `dir` (`/` separated, sorted); symlinks reported apart. */
export async function listPublicFiles(dir: string): Promise<{ files: string[]; skipped: SkippedItem[] }> {
  const files: string[] = []
  const skipped: SkippedItem[] = []
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
      if (entry.isDirectory()) await walk(path)
      else if (entry.isFile()) files.push(path)
      else skipped.push({ item: `public/${path}`, reason: 'not a regular file (symbolic links are not followed)' })
    }
  }
  await walk('')
  return { files: files.sort(), skipped }
}

/** Copies the listed files from `dir` through the writer. */
export async function copyPublicFiles(writer: FileWriter, dir: string, files: readonly string[]): Promise<void> {
  await Promise.all(files.map((file) => writer.copy(join(dir, file), file)))
}
