/**
 * Reading a file that something other than this run left on disk (a previous output, a cache, a record):
 * only a regular file, opened without following a link and without blocking, up to a size.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { messageOf } from '../errors.js'

export type FileRead = { type: 'read'; bytes: Buffer } | { type: 'refused'; reason: string }

/** How an untrusted file is opened: never through a symbolic link, never waiting for a FIFO's writer. */
const OPEN_UNTRUSTED = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK

/**
 * readRegularFile, synchronously, for the build's thread (see write.ts on why it does its file work
 * synchronously): the file's bytes, or undefined when it is not a regular file of at most `maxBytes`.
 */
export function readRegularFileSync(path: string, maxBytes: number): Buffer | undefined {
  let fd: number
  try {
    fd = openSync(path, OPEN_UNTRUSTED)
  } catch {
    return undefined
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile() || stats.size > maxBytes) return undefined
    const bytes = Buffer.allocUnsafe(stats.size)
    let filled = 0
    while (filled < bytes.length) {
      const read = readSync(fd, bytes, filled, bytes.length - filled, filled)
      if (read === 0) break
      filled += read
    }
    return bytes.subarray(0, filled)
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

/**
 * Reads a file that must be a regular file of at most `maxBytes`: opened without following a link
 * (O_NOFOLLOW) and without blocking (O_NONBLOCK: a FIFO does not wait for a writer), checked on the
 * open file, read to at most the size it had.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<FileRead> {
  let handle: Awaited<ReturnType<typeof open>>
  try {
    handle = await open(path, OPEN_UNTRUSTED)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return { type: 'refused', reason: code === 'ELOOP' ? 'it is a symbolic link' : messageOf(error) }
  }
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) return { type: 'refused', reason: 'it is not a regular file' }
    if (stats.size > maxBytes)
      return { type: 'refused', reason: `it is ${stats.size} bytes, over the limit of ${maxBytes}` }
    const bytes = Buffer.allocUnsafe(stats.size)
    let filled = 0
    while (filled < bytes.length) {
      const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return { type: 'read', bytes: bytes.subarray(0, filled) }
  } catch (error) {
    return { type: 'refused', reason: messageOf(error) }
  } finally {
    await handle.close()
  }
}
