/**
 * The previous output as it is on disk, read as untrusted input (a CI cache or a download may have
 * put anything there): walked once with lstat, where a symbolic link, a FIFO, a socket or a device
 * anywhere makes the output unusable for an incremental build; and files read only when they are
 * regular files, opened without following a link and without blocking, up to a size.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, type Stats } from 'node:fs'
import { open } from 'node:fs/promises'
import { messageOf } from '../../errors.js'

/** A previous output's regular files (path -> size in bytes) and its empty folders, `/`-separated and relative to it. */
export interface OutputListing {
  files: ReadonlyMap<string, number>
  /** Each file's lstat stamp as the walk found it (see fileStamp). */
  stamps: ReadonlyMap<string, string>
  /** Folders with nothing in them (a commit removes them; folders emptied by it are those of removed files). */
  emptyDirs: readonly string[]
}

/**
 * A file's lstat stamp: inode, size, modification and change times; undefined when it is missing or no regular
 * file (a link is never taken as unchanged: what it points at can change without it). A file with the stamp it
 * had has not been written since (an in-place write moves its change time, a replacement its inode).
 */
export function fileStamp(path: string): string | undefined {
  const stats = lstatSync(path, { throwIfNoEntry: false })
  return stats?.isFile() ? stampOf(stats) : undefined
}

const stampOf = (stats: Stats): string => `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`

export type OutputScan = ({ type: 'ok' } & OutputListing) | { type: 'unusable'; reason: string }

function kindOf(entry: { isSymbolicLink(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  if (entry.isSymbolicLink()) return 'a symbolic link'
  if (entry.isFIFO()) return 'a FIFO'
  if (entry.isSocket()) return 'a socket'
  return 'a device or other special file'
}

/**
 * Walks `outDir` once without following links. Anything but regular files and folders, or more than
 * `maxEntries` of them, makes the output unusable (the reason names the first such path).
 * Example: OUT/products -> /elsewhere gives { type: 'unusable', reason: '"products" is a symbolic link' }.
 */
export function scanOutput(outDir: string, maxEntries: number): OutputScan {
  const files = new Map<string, number>()
  const stamps = new Map<string, string>()
  const emptyDirs: string[] = []
  const pending = ['']
  let entries = 0
  try {
    while (pending.length > 0) {
      const dir = pending.pop()!
      const listed = readdirSync(dir === '' ? outDir : `${outDir}/${dir}`, { withFileTypes: true })
      if (listed.length === 0 && dir !== '') emptyDirs.push(dir)
      for (const entry of listed) {
        if (++entries > maxEntries)
          return { type: 'unusable', reason: `it holds more than ${maxEntries} files and folders` }
        const path = dir === '' ? entry.name : `${dir}/${entry.name}`
        if (entry.isDirectory()) {
          pending.push(path)
        } else if (entry.isFile()) {
          const stats = lstatSync(`${outDir}/${path}`)
          if (!stats.isFile()) return { type: 'unusable', reason: `${JSON.stringify(path)} changed while it was read` }
          files.set(path, stats.size)
          stamps.set(path, stampOf(stats))
        } else return { type: 'unusable', reason: `${JSON.stringify(path)} is ${kindOf(entry)}` }
      }
    }
  } catch (error) {
    return { type: 'unusable', reason: `it could not be read (${messageOf(error)})` }
  }
  return { type: 'ok', files, stamps, emptyDirs }
}

export type FileRead = { type: 'read'; bytes: Buffer } | { type: 'refused'; reason: string }

/** How a previous output's file is opened: never through a symbolic link, never waiting for a FIFO's writer. */
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
