import { lstat } from 'node:fs/promises'
import { stampOf } from '../../build/disk.js'

/**
 * A manifest file's lstat stamp (build/disk.ts); undefined when it is missing or no regular file (a link is read
 * again each time: what it points at can change without the link changing).
 */
export async function fileStamp(path: string): Promise<string | undefined> {
  const stats = await lstat(path).catch(() => undefined)
  return stats?.isFile() ? stampOf(stats) : undefined
}
