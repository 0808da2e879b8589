/**
 * Pure: the build manifests the client polls to notice a new build, and the ids in them.
 * `_site/builds/latest.json` = `{ id, clientVersion, site? }`, `_site/builds/meta/<id>.json` =
 * `{ id, clientVersion, prerendered, site? }` (`site`: the site's first host name, when the config names
 * sites). Nothing in them comes from the clock or chance:
 * a build's id is a digest of the files it output and the client version a digest of
 * the client bundle, so two builds of the same content write the same manifests.
 */
import { createHash } from 'node:crypto'
import { BUILDS_DIR, buildMetaFile, LATEST_MANIFEST_FILE } from '../../shared/layout.js'
import { compareStrings } from '../../shared/values.js'
import type { BuildManifest } from '../types.js'

/** Largest `latest.json` read from a previous output (it holds a build id, a client version and a host name). */
export const MAX_LATEST_MANIFEST_BYTES = 64 * 1024

/** The fields of a `latest.json` read back from a previous output, unchecked (the file is untrusted); none unless JSON. */
export function readLatestFields(bytes: Buffer): { id?: unknown; site?: unknown } {
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'))
    return typeof value === 'object' && value !== null ? value : {}
  } catch {
    return {}
  }
}

const sortUnique = (paths: Iterable<string>): string[] => [...new Set(paths)].sort()

/**
 * The version of the client code: a digest of the client bundle's file names, which are
 * content-hashed (`_site/assets/entry-AB12CD.js`). Changes when a template, a text, the
 * styles or the engine's client code changes; builds that change only content keep it.
 */
export function clientVersionOf(files: ReadonlyArray<{ path: string }>): string {
  const names = files.map((f) => f.path).sort(compareStrings)
  return createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 12)
}

/** The manifests' folder, made once: buildIdOf looks at every file of an output (60,000 on a 30,000-page site). */
const BUILDS_PREFIX = `${BUILDS_DIR}/`

/** Files whose lines make one part of a build id's digest (see IdLines). */
const ID_PART_FILES = 512

/**
 * The lines a build id was digested from, for the next build of a long-lived builder: a part whose files and
 * hashes did not change is digested again as it is, not made again (30,000 pages: 60,000 lines, 4 MB).
 */
export interface IdLines {
  /** The files, in path order (the manifests' folder left out). */
  paths: readonly string[]
  /** Their content hashes, in the same order. */
  hashes: readonly string[]
  /** The `path\0hash\n` lines of each ID_PART_FILES files, in order. */
  parts: readonly string[]
}

/**
 * A build's id, derived from what it built: a digest of every file of its output (path and
 * content hash, sorted by path), the manifests left out. Example: the same API data, templates
 * and config give the same id; one changed page gives another. With `last` (IdLines of an earlier
 * build), the parts of lines it has for the very same files and hashes are taken as they are; the id
 * is the same either way. `touched` (FileWriter.touched) says that every file but those is `last`'s own,
 * with its hash: only those are looked up. `done` receives this id's lines.
 */
export function buildIdOf(
  outputs: ReadonlyMap<string, string>,
  lines: { last?: IdLines; touched?: ReadonlySet<string>; done?(lines: IdLines): void } = {},
): string {
  const { last, touched, done } = lines
  const { paths, hashes, taken } =
    (last && touched && patchedLines(outputs, last, touched)) ?? listedLines(outputs, last)
  const parts: string[] = []
  const digest = createHash('sha256')
  for (let at = 0; at < paths.length; at += ID_PART_FILES) {
    const end = Math.min(at + ID_PART_FILES, paths.length)
    let part = taken(at / ID_PART_FILES)
    if (part === undefined) {
      part = ''
      for (let i = at; i < end; i++) part += `${paths[i]}\0${hashes[i]}\n`
    }
    digest.update(part)
    if (done) parts.push(part)
  }
  done?.({ paths, hashes, parts })
  return digest.digest('hex').slice(0, 16)
}

/** An id's files and hashes in path order, and the last id's part `k` when it is this id's too. */
interface Lines {
  paths: readonly string[]
  hashes: readonly string[]
  taken(k: number): string | undefined
}

/** Every file of `outputs` listed (the manifests left out) and sorted, unless they are `last`'s files. */
function listedLines(outputs: ReadonlyMap<string, string>, last: IdLines | undefined): Lines {
  const listed: string[] = []
  // the manifests' own folder is left out of the id (the manifests name it)
  for (const path of outputs.keys()) if (!path.startsWith(BUILDS_PREFIX)) listed.push(path)
  // as many files as the last id's, every one of them here: the same files, in the order already sorted
  const found = last && last.paths.length === listed.length ? hashesOf(outputs, last.paths) : undefined
  if (found && last) {
    const taken = (k: number) => {
      const end = Math.min((k + 1) * ID_PART_FILES, found.length)
      for (let i = k * ID_PART_FILES; i < end; i++) if (found[i] !== last.hashes[i]) return undefined
      return last.parts[k]
    }
    return { paths: last.paths, hashes: found, taken }
  }
  // The default sort orders strings by UTF-16 code units, as compareStrings does, without a call per comparison.
  const paths = listed.sort()
  return { paths, hashes: hashesOf(outputs, paths)!, taken: () => undefined }
}

/**
 * `last`'s lines with the hashes of `touched` looked up again, when those are files `last` has and `outputs` has
 * still (the files are the same); undefined when one was added or is gone.
 */
function patchedLines(
  outputs: ReadonlyMap<string, string>,
  last: IdLines,
  touched: ReadonlySet<string>,
): Lines | undefined {
  const hashes = last.hashes.slice()
  const changed = new Set<number>()
  for (const path of touched) {
    if (path.startsWith(BUILDS_PREFIX)) continue
    const i = indexOfSorted(last.paths, path)
    const hash = outputs.get(path)
    if (i === undefined && hash === undefined) continue
    if (i === undefined || hash === undefined) return undefined
    if (hash !== hashes[i]) {
      hashes[i] = hash
      changed.add(Math.floor(i / ID_PART_FILES))
    }
  }
  return { paths: last.paths, hashes, taken: (k) => (changed.has(k) ? undefined : last.parts[k]) }
}

/** Where `value` is in `sorted` (sorted by UTF-16 code units), or undefined. */
function indexOfSorted(sorted: readonly string[], value: string): number | undefined {
  let low = 0
  let high = sorted.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const at = sorted[middle]!
    if (at === value) return middle
    if (at < value) low = middle + 1
    else high = middle - 1
  }
  return undefined
}

/** The hashes of `paths` in `outputs`, in their order; undefined when one of them is not there. */
function hashesOf(outputs: ReadonlyMap<string, string>, paths: readonly string[]): string[] | undefined {
  const hashes: string[] = []
  for (const path of paths) {
    const hash = outputs.get(path)
    if (hash === undefined) return undefined
    hashes.push(hash)
  }
  return hashes
}

/** The manifest of a build; `prerendered` sorted and de-duplicated, unless it is so already (`sorted`). */
export const createManifest = (options: {
  id: string
  clientVersion: string
  prerendered: Iterable<string>
  sorted?: boolean
  site?: string
}): BuildManifest => ({
  id: options.id,
  clientVersion: options.clientVersion,
  prerendered: options.sorted ? [...options.prerendered] : sortUnique(options.prerendered),
  ...(options.site ? { site: options.site } : {}),
})

/** The two manifest files, paths relative to the output folder. */
export function renderManifestFiles(manifest: BuildManifest): Array<{ path: string; contents: string }> {
  const { id, clientVersion, site } = manifest
  const latest = { id, clientVersion, ...(site ? { site } : {}) }
  return [
    { path: LATEST_MANIFEST_FILE, contents: `${JSON.stringify(latest)}\n` },
    { path: buildMetaFile(manifest.id), contents: `${JSON.stringify(manifest)}\n` },
  ]
}
