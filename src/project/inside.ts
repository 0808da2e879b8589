/**
 * Whether a path lies in a folder, for the checks that keep what a command writes or serves where it belongs.
 */
import { realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path'

/** True when `path` is `folder` or lies inside it (both absolute; `folder/..x` is inside, `folder/../x` is not). */
export function isInsideOrEqual(folder: string, path: string): boolean {
  const rel = relative(folder, path)
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
}

/** Where a path is once its links are followed: its nearest existing folder's real path, and the rest as given. */
export function realPath(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    const parent = dirname(path)
    return parent === path ? path : join(realPath(parent), basename(path))
  }
}
