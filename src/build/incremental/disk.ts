/**
 * The previous output as it is on disk, read as untrusted input (a CI cache or a download may have
 * put anything there): walked once with lstat, where a symbolic link, a FIFO, a socket or a device
 * anywhere makes the output unusable for an incremental build. Its files are read with
 * src/project/untrusted-file.ts.
 */
import { lstatSync, readdirSync, type Stats } from 'node:fs'
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
