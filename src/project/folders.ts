/**
 * `mkdir -p` that always ends. Node's recursive mkdir retries for ever, at full CPU and deaf to SIGTERM, where a
 * folder cannot be made under one that exists and mkdir answers ENOENT (`/proc/x`, a vanished mount point): the
 * missing folders are made here one at a time, from the nearest that exists, and the first refusal is thrown.
 */
import { lstat, mkdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'

/** Makes `path` and the folders above it that are missing; resolves to the first folder it made, as mkdir's `recursive`. */
export async function makeFolders(path: string): Promise<string | undefined> {
  const missing: string[] = []
  for (let dir = resolve(path); dirname(dir) !== dir; dir = dirname(dir)) {
    if (
      await lstat(dir).then(
        () => true,
        () => false,
      )
    )
      break
    missing.unshift(dir)
  }
  // nothing missing: mkdir's own answer (none for a folder, EEXIST for a file) without any retry
  if (!missing.length) return mkdir(path, { recursive: true })
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
