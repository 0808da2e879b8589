/**
 * Where `site init` may write: a missing folder (created), an empty one, or with `force` any folder.
 * Checked before anything is written, so that bad input leaves the disk as it was.
 */
import { constants } from 'node:fs'
import { access, readdir, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { errors } from '../errors.js'

/** Entries a fresh folder may hold and still count as empty (`git init`, then `site init .`). */
const IGNORED_ENTRIES = new Set(['.git'])

const PERMISSION_CODES = new Set(['EACCES', 'EPERM', 'EROFS'])

const codeOf = (error: unknown): string => String((error as NodeJS.ErrnoException | undefined)?.code ?? '')

/** INIT_NOT_WRITABLE naming `path` when `error` is a permission refused (or a read-only disk); else undefined. */
export const notWritable = (path: string, error: unknown) =>
  PERMISSION_CODES.has(codeOf(error)) ? errors.initNotWritable(path, codeOf(error)) : undefined

/** stat(), or undefined when nothing is there. */
async function statOrNothing(path: string): Promise<Awaited<ReturnType<typeof stat>> | undefined> {
  try {
    return await stat(path)
  } catch (error) {
    // ENOTDIR: a file stands where a folder of the path should be; the walk up finds and names it.
    if (codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR') return undefined
    throw notWritable(path, error) ?? error
  }
}

/** The folder itself or its nearest existing ancestor (which must be a folder): where the first write happens. */
async function firstExisting(dir: string): Promise<string> {
  for (let path = dir; ; path = dirname(path)) {
    const stats = await statOrNothing(path)
    if (stats && !stats.isDirectory()) throw errors.initNotADirectory(path)
    if (stats || dirname(path) === path) return path
  }
}

/**
 * Checks `dir` (absolute) as the folder of a new site: not a file, empty unless `force`, writable.
 * Throws the error that names the path; returns whether the folder exists already.
 */
export async function checkInitTarget(dir: string, options: { force: boolean }): Promise<{ exists: boolean }> {
  const base = await firstExisting(dir)
  const exists = base === dir
  if (exists && !options.force) {
    const entries = (await readdir(dir)).filter((name) => !IGNORED_ENTRIES.has(name)).sort()
    if (entries.length > 0) throw errors.initDirNotEmpty(dir, entries)
  }
  try {
    await access(base, constants.W_OK)
  } catch (error) {
    throw errors.initNotWritable(base, codeOf(error) || 'EACCES')
  }
  return { exists }
}
