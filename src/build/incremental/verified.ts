/**
 * What a build found on disk as its state says, kept for the next build over the same output folder: each
 * file's lstat stamp (inode, size, modification and change times) with the content hash it was checked
 * against. A file whose stamp is the one recorded has not been written since (an in-place write moves its
 * change time, which no process sets back; a replacement its inode), so the next build takes its hash
 * without reading it: a 30,000-page output is 2.3 GB to read, its stamps come with the walk the build
 * makes anyway (scanOutput).
 *
 * Kept in the project's cache (`.site/outputs/`), never in the output: the output stays the bytes a build
 * from scratch writes, and a host never serves it. A record is a cache: read as untrusted (bounded, a line
 * only ever matched whole), written aside and renamed, and a build that cannot write it goes on.
 * An output restored from a CI cache or copied has other stamps: it is read in full, as without a record.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { readRegularFileSync } from '../../project/untrusted-file.js'
import { cacheDir } from '../../shared/layout.js'

/** Records of this many output folders are kept in a project's cache, and every one written in the last hour. */
const MAX_RECORDS = 8
const RECENT_MS = 60 * 60 * 1000
/** A record line is at most this long: a longer one (or a record over their sum) is not read. */
const MAX_LINE_BYTES = 4096

/** Each checked file's stamp and hash (`<stamp>\t<hash>`, see verifiedAs), by its path in the output. */
export type VerifiedFiles = ReadonlyMap<string, string>

/** How a record holds a file with this stamp and hash. */
export const verifiedAs = (stamp: string, hash: string): string => `${stamp}\t${hash}`

/** The record of the output folder `outDir` in the project at `root`. */
export function verifiedRecordFile(root: string, outDir: string): string {
  const key = createHash('sha256').update(resolve(outDir)).digest('hex').slice(0, 16)
  return join(root, cacheDir('outputs'), `${key}.tsv`)
}

/**
 * Reads a record of at most `maxFiles` files; empty when there is none or it cannot be read. Each line is
 * taken as it is, by the path after its last tab: the build compares it whole with verifiedAs of a stamp it
 * took and a hash the state holds, so a line that is anything else matches nothing.
 */
export function readVerified(file: string, maxFiles: number): VerifiedFiles {
  const bytes = readRegularFileSync(file, maxFiles * MAX_LINE_BYTES)
  const verified = new Map<string, string>()
  if (!bytes) return verified
  for (const line of bytes.toString('utf8').split('\n')) {
    const tab = line.lastIndexOf('\t')
    if (tab > 0 && tab < line.length - 1) verified.set(line.slice(tab + 1), line.slice(0, tab))
  }
  return verified
}

/**
 * Writes the record of an output (path, stamp, hash of each file; a path with a tab or a line break is left
 * out: it is read again next time). False when it could not be written (the build goes on without it).
 */
export function writeVerified(file: string, files: Iterable<[path: string, stamp: string, hash: string]>): boolean {
  const lines: string[] = []
  for (const [path, stamp, hash] of files)
    if (!/[\t\n\r]/.test(path)) lines.push(`${verifiedAs(stamp, hash)}\t${path}\n`)
  const dir = join(file, '..')
  const partial = `${file}.${process.pid}.tmp`
  try {
    mkdirSync(dir, { recursive: true })
    writeFileSync(partial, lines.join(''))
    renameSync(partial, file)
  } catch {
    try {
      rmSync(partial, { force: true })
    } catch {}
    return false
  }
  try {
    pruneRecords(dir)
  } catch {} // another build pruning at the same time
  return true
}

/**
 * Leaves the MAX_RECORDS newest records, and those of builds in the last hour (builds side by side over
 * scratch folders, as a test suite runs them, never take each other's record away between two builds).
 */
function pruneRecords(dir: string): void {
  const recent = Date.now() - RECENT_MS
  const records = readdirSync(dir)
    .filter((name) => name.endsWith('.tsv'))
    .map((name) => ({ name, at: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at)
  for (const { name, at } of records.slice(MAX_RECORDS)) if (at < recent) rmSync(join(dir, name), { force: true })
}
