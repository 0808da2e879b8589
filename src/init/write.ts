/**
 * Writes a new project's files. A failed or stopped write removes every file and folder this run created, so a
 * refused, failed or stopped `site init` leaves nothing behind (files replaced under `--force` stay replaced).
 */
import { rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { errors } from '../errors.js'
import { makeFolders } from '../project/folders.js'
import type { ScaffoldFile } from './files.js'
import { notWritable } from './target.js'

/**
 * Writes `files` under `dir` (absolute); `force`: replace files of the same name; `signal`: stop, rejecting with
 * its reason.
 */
export async function writeScaffold(
  dir: string,
  files: readonly ScaffoldFile[],
  options: { force: boolean; signal?: AbortSignal },
): Promise<void> {
  const created: string[] = []
  let current = dir
  try {
    // mkdir -p answers the first folder it created: removing that one removes everything below it.
    const first = await makeFolders(dir)
    if (first) created.push(first)
    for (const file of files) {
      options.signal?.throwIfAborted()
      current = join(dir, file.path)
      const folder = await makeFolders(dirname(current))
      if (folder) created.push(folder)
      await writeFile(current, file.contents, { flag: options.force ? 'w' : 'wx' })
      created.push(current)
    }
  } catch (error) {
    for (const path of created.reverse()) await rm(path, { recursive: true, force: true })
    options.signal?.throwIfAborted()
    throw notWritable(current, error) ?? errors.initWriteFailed(current, error)
  }
}
