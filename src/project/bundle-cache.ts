/**
 * esbuild's bundles kept in the project's `.site/bundles/`: a build whose templates, engine and packages are
 * as the last bundle read them takes that bundle instead of running esbuild again (on a small site, most of
 * a build's start). An entry is found by its name and a key (what shapes the bundle besides the files it
 * reads: its options, esbuild's version, the bundler's own code) and lists every file the bundle read, with
 * the `package.json`, `tsconfig.json` and `jsconfig.json` of their folders and of the folders above (they
 * steer how esbuild resolves and compiles), each with a digest of its bytes. It is taken only when every one
 * of them still has the bytes it had.
 *
 * The cache is untrusted input, as a previous output is: a record is read with a size bound and checked
 * field by field, every stored file is taken only when its bytes have the digest the record gives, and what
 * the record says of the bundle is checked by the caller (`check`). Anything else is a miss: the bundle is
 * made again and the entry replaced. Writes go to a temporary name and are renamed, so that builds running
 * side by side (render workers, tests) never read half a file.
 */
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { readdir, rm, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isRecord } from '../shared/values.js'
import { makeFolders } from './folders.js'
import { writeAtomically } from './module-file.js'
import { readRegularFile } from './untrusted-file.js'

/** What a bundle is made of, for the cache: its result, the files it read, and the bytes it produced by name. */
export interface MadeBundle<T> {
  value: T
  /** Absolute paths of every file the bundle read (esbuild's metafile inputs). */
  inputs: readonly string[]
  blobs: ReadonlyMap<string, string | Uint8Array>
}

export interface CachedBundleOptions<T> {
  /** The cache folder (`.site/bundles` under the project root). */
  dir: string
  /** The entry's name: one entry per name is kept (`client`, `templates`). */
  name: string
  /** What shapes the bundle besides the files it reads; esbuild's version and the bundler's code are added. */
  key: string
  /** The bundler's module (`import.meta.url`): the code of its folder and of src/shared/ is part of the key. */
  bundler: string
  /** The stored value as this bundle's, or undefined when it is not one; `blobs` are the names stored beside it. */
  check: (value: unknown, blobs: ReadonlySet<string>) => T | undefined
  make: () => Promise<MadeBundle<T>>
}

/** Largest record read back (a client bundle's assets and a few hundred inputs take some 100 KB). */
const MAX_RECORD_BYTES = 8 * 1024 * 1024
/** Largest stored file read back. */
const MAX_BLOB_BYTES = 64 * 1024 * 1024
const RECORD_VERSION = 1
const DIGEST_RE = /^[0-9a-f]{64}$/
/** Files that steer how esbuild resolves and compiles the files of their folder and the folders below. */
const FOLDER_CONFIG_FILES = ['package.json', 'tsconfig.json', 'jsconfig.json']

const digestOf = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

/** The code of the modules that shape a bundle (the bundler's folder and src/shared/), and esbuild's version. */
function bundlerDigest(bundler: string): string {
  // esbuild's version from its package.json: a build that finds its bundles here never loads esbuild
  const esbuild = createRequire(import.meta.url)('esbuild/package.json') as { version: string }
  const hash = createHash('sha256').update(esbuild.version)
  const here = dirname(fileURLToPath(bundler))
  for (const dir of [here, join(here, '../shared')]) {
    for (const name of readdirSync(dir)
      .filter((n) => /\.(?:js|ts|tsx)$/.test(n))
      .sort()) {
      hash.update(`${name}\0`).update(readFileSync(join(dir, name)))
    }
  }
  return hash.digest('hex')
}

/** The bundle's inputs and the config files of their folders and every folder above, sorted. */
function watchedFiles(inputs: readonly string[]): string[] {
  const files = new Set(inputs)
  const folders = new Set<string>()
  for (const input of inputs) {
    for (let dir = dirname(input); !folders.has(dir); dir = dirname(dir)) {
      folders.add(dir)
      if (dirname(dir) === dir) break
    }
  }
  for (const dir of folders) for (const name of FOLDER_CONFIG_FILES) files.add(join(dir, name))
  return [...files].sort()
}

/**
 * A file's digest now, null when it is not there, or `unreadable` (never a digest, so never a match). Read as
 * untrusted input: a record's paths are the cache's word, and a FIFO there must not stall the build.
 */
async function currentDigest(file: string): Promise<string | null> {
  const read = await readRegularFile(file, MAX_BLOB_BYTES)
  if (read.type === 'read') return digestOf(read.bytes)
  return existsSync(file) ? 'unreadable' : null
}

interface CacheRecord {
  key: string
  inputs: Array<[string, string | null]>
  value: unknown
  blobs: Array<[string, string]>
}

/** The record's fields, checked; undefined when it is not a record this module wrote. */
function checkRecord(parsed: unknown): CacheRecord | undefined {
  if (!isRecord(parsed) || parsed.version !== RECORD_VERSION || typeof parsed.key !== 'string') return undefined
  const { inputs, blobs } = parsed
  if (!Array.isArray(inputs) || !Array.isArray(blobs)) return undefined
  const isInput = (entry: unknown): entry is [string, string | null] =>
    Array.isArray(entry) &&
    entry.length === 2 &&
    typeof entry[0] === 'string' &&
    isAbsolute(entry[0]) &&
    !entry[0].includes('\0') &&
    (entry[1] === null || (typeof entry[1] === 'string' && DIGEST_RE.test(entry[1])))
  const isBlob = (entry: unknown): entry is [string, string] =>
    Array.isArray(entry) &&
    entry.length === 2 &&
    typeof entry[0] === 'string' &&
    typeof entry[1] === 'string' &&
    DIGEST_RE.test(entry[1])
  if (!inputs.every(isInput) || !blobs.every(isBlob)) return undefined
  return { key: parsed.key, inputs, value: parsed.value, blobs }
}

const recordFile = (options: { dir: string; name: string }) => join(options.dir, `${options.name}.json`)
const blobDir = (options: { dir: string; name: string }) => join(options.dir, options.name)

/** The stored bundle when its record, its inputs and its files all hold; undefined on any miss. */
async function lookUp<T>(
  options: CachedBundleOptions<T>,
  key: string,
): Promise<{ value: T; blobs: Map<string, Uint8Array> } | undefined> {
  const read = await readRegularFile(recordFile(options), MAX_RECORD_BYTES)
  if (read.type !== 'read') return undefined
  let record: CacheRecord | undefined
  try {
    record = checkRecord(JSON.parse(read.bytes.toString('utf8')))
  } catch {
    return undefined
  }
  if (!record || record.key !== key) return undefined
  const now = await Promise.all(record.inputs.map(([file]) => currentDigest(file)))
  if (record.inputs.some(([, digest], i) => now[i] !== digest)) return undefined
  const value = options.check(record.value, new Set(record.blobs.map(([name]) => name)))
  if (value === undefined) return undefined
  const blobs = new Map<string, Uint8Array>()
  for (const [name, digest] of record.blobs) {
    const blob = await readRegularFile(join(blobDir(options), digest), MAX_BLOB_BYTES)
    if (blob.type !== 'read' || digestOf(blob.bytes) !== digest) return undefined
    blobs.set(name, blob.bytes)
  }
  return { value, blobs }
}

/**
 * Whether one of `files` was written at or after `sinceMs` (a file that is not there was not). A file's time comes
 * from the kernel's coarse clock, up to a tick behind: a save within that tick of `sinceMs` goes unseen.
 */
async function writtenSince(files: readonly string[], sinceMs: number): Promise<boolean> {
  const mtimeOf = (file: string) =>
    stat(file)
      .then((stats) => stats.mtimeMs)
      .catch(() => 0)
  const times = await Promise.all(files.map(mtimeOf))
  return times.some((time) => time >= sinceMs)
}

/** Stores a bundle made from `startedMs` on: its files, then its record; files no longer named are removed. */
async function store<T>(
  options: CachedBundleOptions<T>,
  key: string,
  made: MadeBundle<T>,
  startedMs: number,
): Promise<void> {
  const dir = blobDir(options)
  await makeFolders(dir)
  const blobs: Array<[string, string]> = []
  for (const [name, contents] of made.blobs) {
    const digest = digestOf(contents)
    await writeAtomically(join(dir, digest), contents)
    blobs.push([name, digest])
  }
  const files = watchedFiles(made.inputs)
  const digests = await Promise.all(files.map(currentDigest))
  // a file that could not be read cannot be watched: no entry is stored, the next build bundles again
  if (digests.includes('unreadable')) return
  // a file saved while the bundle was made (an editor's save during a preview's bundle) may have been read before:
  // its digest now is not that of the bytes bundled, and the entry would be taken until it changed again
  if (await writtenSince(files, startedMs)) return
  const inputs = files.map((file, i) => [file, digests[i]] as const)
  const record = { version: RECORD_VERSION, key, inputs, value: made.value, blobs }
  await writeAtomically(recordFile(options), JSON.stringify(record))
  const kept = new Set(blobs.map(([, digest]) => digest))
  const stale = (await readdir(dir)).filter((name) => DIGEST_RE.test(name) && !kept.has(name))
  await Promise.all(stale.map((name) => rm(join(dir, name), { force: true })))
}

/**
 * The files a bundle read, absolute, from esbuild's metafile (which names them relative to its working folder,
 * and virtual modules as `namespace:path`, left out here).
 */
export const metafileInputs = (metafile: { inputs: object }, workingDir: string): string[] =>
  Object.keys(metafile.inputs)
    .filter((input) => !/^[a-z-]+:/.test(input))
    .map((input) => resolve(workingDir, input))

/** The `check` of a bundle stored as named texts only (a module and its map): its value is null. */
export const storedTexts =
  (...names: string[]) =>
  (value: unknown, blobs: ReadonlySet<string>): null | undefined =>
    value === null && names.every((name) => blobs.has(name)) ? null : undefined

/** A stored text by name ('' when there is none). */
export const textOf = (blobs: ReadonlyMap<string, string | Uint8Array>, name: string): string =>
  Buffer.from(blobs.get(name) ?? '').toString('utf8')

/**
 * The bundle `make` makes, taken from the cache when the entry there still holds; a bundle made anew is
 * stored for the next build. A cache that cannot be written costs the next build a bundle, nothing else.
 */
export async function cachedBundle<T>(
  options: CachedBundleOptions<T>,
): Promise<{ value: T; blobs: ReadonlyMap<string, string | Uint8Array>; cached: boolean }> {
  const key = digestOf(`${options.key}\0${bundlerDigest(options.bundler)}`)
  const found = await lookUp(options, key)
  if (found) return { ...found, cached: true }
  const startedMs = Date.now()
  const made = await options.make()
  await store(options, key, made, startedMs).catch(() => {})
  return { value: made.value, blobs: made.blobs, cached: false }
}
