/**
 * `mkdir -p` that always ends. Node's recursive mkdir retries for ever, at full CPU and deaf to SIGTERM, where a
 * folder cannot be made under one that exists and mkdir answers ENOENT (`/proc/x`, a vanished mount point): the
 * missing folders are made here one at a time, from the nearest that exists, and the first refusal is thrown.
 */
import type { Stats } from 'node:fs'
import { lstat, mkdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'

/** Makes `path` and the folders above it that are missing; resolves to the first folder it made, as mkdir's `recursive`. */
export async function makeFolders(path: string): Promise<string | undefined> {
  const missing: string[] = []
  let found: Stats | undefined
  for (let dir = resolve(path); dirname(dir) !== dir; dir = dirname(dir)) {
    found = await lstat(dir).catch(() => undefined)
    if (found) break
    missing.unshift(dir)
  }
  // nothing missing: a folder is done with (a deploy asks once a file); anything else gets mkdir's own answer
  // (EEXIST for a file, a link followed) without any retry
  if (!missing.length) return found?.isDirectory() ? undefined : mkdir(path, { recursive: true })
  let first: string | undefined
  for (const dir of missing) {
    const made = await mkdir(dir).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        // made meanwhile by another process (two builds starting at once): theirs, not ours to report as made
        if (error.code !== 'EEXIST') throw error
        return false
      },
    )
    if (made) first ??= dir
  }
  return first
}
