/**
 * The previous output as a build finds it in OUT: its build store (store.ts), read and
 * checked once, or why there is none to use. What a build reuses depends on what it finds:
 * a store of this format lets it keep unchanged files, carry slug history and keep the
 * assets of earlier builds; `--only` also needs the same engine and config (previous
 * pages are rendered again from their payloads, see reuse.ts).
 */
import { createHash } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ResolvedSite } from '../../config/types.js'
import { readRegularFile, readRegularFileSync } from '../../project/untrusted-file.js'
import { BUILD_STORE_ASIDE_FILE, BUILD_STORE_FILE, LATEST_MANIFEST_FILE, PAYLOAD_FILE } from '../../shared/layout.js'
import { normalizePagePath } from '../../shared/url.js'
import { type IdLines, MAX_LATEST_MANIFEST_BYTES, readLatestFields } from '../output/manifest.js'
import type { OutDirContents } from '../output/output.js'
import { hashContents, type PreviousFiles } from '../output/write.js'
import type { PageIdentity, PageTable, StringPool } from '../page-table.js'
import { fileStamp, type OutputListing, scanOutput } from './disk.js'
import {
  type BuildStore,
  configDigest,
  engineId,
  type ParseStoreOptions,
  parseStore,
  type StoredRedirect,
  type StoreHead,
  type StoreLines,
} from './store.js'
import { readVerified, type VerifiedFiles, verifiedAs } from './verified.js'

export interface PreviousOutput extends PreviousFiles {
  store: StoreHead
  pages: PageTable
  redirects: Map<string, StoredRedirect>
  /**
   * Every file (path -> its size, or its hash for a builder's last output) and empty folder of the previous
   * output as it is on disk: what the new output lacks is removed.
   */
  disk: { files: ReadonlyMap<string, unknown>; emptyDirs: readonly string[] }
  /** Its files that are no page's (path -> hash; the state's own left out), when the output is a builder's last one. */
  otherFiles?: ReadonlyMap<string, string>
  /** Files on disk that the state does not list (nothing the previous build wrote): removed, and reported. */
  unlisted: string[]
  /** Files the state lists that this build found not on disk as that build wrote them (missing, changed): written again. */
  changed(): string[]
  /** The content hash the state records for a file, whatever is on disk (see hashOf for one checked). */
  recordedHashOf(path: string): string | undefined
  /** The lstat stamp a file had when this build checked it against the state; undefined when it did not, or it failed. */
  verifiedStamp?(path: string): string | undefined
}

/** The page whose `index.html` (0) or `_payload.json` (1) a file is: 'pl/o-nas/index.html' -> ['/pl/o-nas', 0]. */
export function pageOfFile(file: string): [path: string, which: 0 | 1] | undefined {
  const name = file.endsWith(PAYLOAD_FILE) ? PAYLOAD_FILE : file.endsWith('index.html') ? 'index.html' : undefined
  if (!name || (file !== name && !file.endsWith(`/${name}`))) return undefined
  // file names are decoded segments: a `%` in one is the page path's `%25`, not the start of an escape
  const folder = file === name ? '' : file.slice(0, -name.length - 1).replaceAll('%', '%25')
  const path = normalizePagePath(`/${folder}`)
  return path.ok ? [path.path, name === PAYLOAD_FILE ? 1 : 0] : undefined
}

/**
 * What slug history needs of an earlier build (planSlugRedirects): where its pages were (uid -> path) and its
 * redirects, the slug history among them.
 */
export interface SlugHistory {
  pages: Iterable<PageIdentity>
  redirects: readonly StoredRedirect[]
}

/**
 * The previous output, or why there is none to use; then, when a commit was cut short (its store moved aside,
 * see applyToOutput), the slug history of the last complete build, which a build from scratch carries on.
 */
export type PreviousLookup =
  | { type: 'found'; previous: PreviousOutput }
  | { type: 'none'; reason: string; history?: SlugHistory }

/** The engine folders whose code shapes what a build writes (media: the images' files, sizes and srcsets). */
const ENGINE_DIRS = ['api', 'build', 'hydration', 'media', 'render', 'runtime', 'shared']
const ENGINE_FILE_RE = /\.(?:js|ts|tsx)$/

/**
 * The running engine's identity: site's version plus a digest of its own code (src/ or dist/, or `root`),
 * so that page data prepared by other engine code is never reused, released or not.
 */
export function currentEngine(root = fileURLToPath(new URL('../../', import.meta.url))): string {
  const version = (createRequire(import.meta.url)('../../../package.json') as { version: string }).version
  const hash = createHash('sha256')
  for (const dir of ENGINE_DIRS) {
    const names = readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    for (const name of names.filter((n) => ENGINE_FILE_RE.test(n)).sort()) {
      hash.update(`${dir}/${name}\0`)
      hash.update(readFileSync(join(root, dir, name)))
    }
  }
  return engineId(version, hash.digest('hex').slice(0, 12))
}

/**
 * Why the previous output's pages and derived files cannot be taken as this build's own: another engine
 * wrote them, or another configuration; undefined when they can (see planOnly and writeSiteFiles).
 */
export function otherBuilder(previous: PreviousOutput, engine: string, site: ResolvedSite): string | undefined {
  if (previous.store.engine !== engine) return 'the previous output was built by another version of site'
  if (previous.store.config !== configDigest(site))
    return 'the configuration (site, API or options) changed since the previous build'
  return undefined
}

/** Files and folders a previous output may hold per page it may have (`build.maxPages`), and beside them. */
const ENTRIES_PER_PAGE = 4
const ENTRIES_BESIDE_PAGES = 10_000
/** Bytes of build state per path it may name, and beside them: a state larger than that was not written by a build. */
const STORE_BYTES_PER_PATH = 4096
const STORE_BYTES_BESIDE_PATHS = 1024 * 1024

const unusable = (reason: string, history?: SlugHistory): PreviousLookup => ({
  type: 'none',
  reason: `the previous output is not usable: ${reason}`,
  ...(history ? { history } : {}),
})

/**
 * Reads the previous output's build store, when OUT holds a previous output (see inspectOutDir),
 * its paths as `pool`'s strings.
 */
export async function loadPrevious(
  outDir: string,
  contents: OutDirContents,
  options: {
    site: ResolvedSite
    pool?: StringPool
    /** What a long-lived builder knows of the output (see OutputMemory). */
    memory?: OutputMemory
    /** Take the memory's last committed output as it is, when nothing else wrote the folder since (see OutputMemory). */
    trustLast?: boolean
    /** The record of what the last build over OUT checked (see verified.ts): files with its stamps are not read. */
    verifiedRecord?: string
  },
): Promise<PreviousLookup> {
  if (contents === 'missing' || contents === 'empty') return { type: 'none', reason: 'there is no previous output' }
  if (contents === 'other') return { type: 'none', reason: 'the output folder held no previous site output' }
  const { site, pool } = options
  const last = options.memory?.last
  if (options.trustLast && last && isUntouched(last, outDir, pool)) return { type: 'found', previous: lastOutput(last) }
  const { maxPages } = site.build
  const maxFiles = maxPages * ENTRIES_PER_PAGE + ENTRIES_BESIDE_PAGES
  const disk = scanOutput(outDir, maxFiles)
  const check = { locales: site.i18n.locales, baseUrl: site.baseUrl }
  if (disk.type === 'unusable') {
    // none of its files is taken, but the slug history of its state is: its old paths keep their 301
    const maxBytes = maxPages * STORE_BYTES_PER_PATH + STORE_BYTES_BESIDE_PATHS
    const history = noLinkOnTheWay(outDir, BUILD_STORE_FILE)
      ? await readHistory(outDir, BUILD_STORE_FILE, { ...check, maxPaths: maxPages }, maxBytes)
      : undefined
    return unusable(disk.reason, history)
  }
  // read as bytes and parsed line by line: never the whole text as one string beside the pages
  const maxStoreBytes = Math.min(maxPages, disk.files.size) * STORE_BYTES_PER_PATH + STORE_BYTES_BESIDE_PATHS
  if (!disk.files.has(BUILD_STORE_FILE)) {
    const cut = disk.files.has(BUILD_STORE_ASIDE_FILE)
    const history = cut
      ? await readHistory(outDir, BUILD_STORE_ASIDE_FILE, { ...check, maxPaths: maxPages }, maxStoreBytes)
      : undefined
    return {
      type: 'none',
      reason: cut
        ? `the previous output has no ${BUILD_STORE_FILE}: its build stopped while replacing files${history ? ' (the slug history of the build before it is kept)' : ''}`
        : `the previous output has no ${BUILD_STORE_FILE} (an older site wrote it, or its build stopped while replacing files)`,
      ...(history ? { history } : {}),
    }
  }
  const read = await readRegularFile(join(outDir, BUILD_STORE_FILE), maxStoreBytes)
  if (read.type === 'refused') return unusable(`its ${BUILD_STORE_FILE}: ${read.reason}`)
  const storeHash = hashContents(read.bytes)
  const parsed = parseStore(read.bytes, { ...check, pool, maxPaths: maxPages, disk: disk.files })
  if ('reason' in parsed)
    return unusable(
      parsed.reason,
      parsed.unlistedLocales && historyOf(read.bytes, { ...check, maxPaths: maxPages }, parsed),
    )
  const { pages, files, ...store } = parsed.store
  const latest = await readRegularFile(join(outDir, LATEST_MANIFEST_FILE), MAX_LATEST_MANIFEST_BYTES)
  if (latest.type === 'refused' || readLatestFields(latest.bytes).id !== store.id)
    return { type: 'none', reason: `the previous output's ${LATEST_MANIFEST_FILE} names another build than its state` }
  const listed = new Set(parsed.missing)
  const unlisted = [...disk.files.keys()].filter((path) => {
    if (path === BUILD_STORE_FILE || files.has(path) || listed.has(path)) return false
    const page = pageOfFile(path)
    return !(page && pages.has(page[0]))
  })
  const recordedHash = recordedHashes(parsed.store, storeHash)
  const recorded = options.verifiedRecord ? readVerified(options.verifiedRecord, maxFiles) : new Map()
  const verified = createVerifier(outDir, disk, recorded)
  return {
    type: 'found',
    previous: {
      store,
      pages,
      redirects: new Map(store.redirects.map((r) => [r.from, r])),
      disk,
      unlisted: unlisted.sort(),
      changed: () => [...parsed.missing, ...verified.failed()].sort(),
      verifiedStamp: verified.stamp,
      recordedHashOf: recordedHash,
      hashOf: (path) => {
        const hash = recordedHash(path)
        return hash !== undefined && (path === BUILD_STORE_FILE || verified.check(path, hash)) ? hash : undefined
      },
    },
  }
}

/**
 * The slug history of a store OUT holds but a build cannot take as its previous output: the one a cut commit
 * left aside (BUILD_STORE_ASIDE_FILE), or the state of an unusable output. Untrusted, read and checked as the
 * store is (no link followed, bounded, every entry checked), over a pool of its own; only its pages'
 * identities and its redirects are taken, none of its files. Undefined when it cannot be read or used.
 */
async function readHistory(
  outDir: string,
  file: string,
  check: ParseStoreOptions,
  maxBytes: number,
): Promise<SlugHistory | undefined> {
  const read = await readRegularFile(join(outDir, file), maxBytes)
  return read.type === 'refused' ? undefined : historyOf(read.bytes, check)
}

/**
 * The slug history of store bytes, checked as the store is. A store of a build whose i18n.locales listed more
 * (a locale was removed since) is checked with those locales too, and gives the history of the locales still
 * listed: a locale's removal drops its own pages and redirects only, as a build from scratch would not write them.
 * `read`: the bytes as a caller already parsed them, not parsed again.
 */
function historyOf(
  bytes: Uint8Array,
  check: ParseStoreOptions,
  read = parseStore(bytes, check),
): SlugHistory | undefined {
  let parsed = read
  if ('reason' in parsed && parsed.unlistedLocales)
    parsed = parseStore(bytes, { ...check, locales: [...check.locales, ...parsed.unlistedLocales] })
  if ('reason' in parsed) return undefined
  const listed = ({ locale }: { locale: string }) => check.locales.includes(locale)
  const { pages, redirects } = parsed.store
  return { pages: [...pages.identities()].filter(listed), redirects: redirects.filter(listed) }
}

/**
 * True when every folder between OUT and `file` is a real folder, no link: in an unusable output the walk may have
 * stopped before them, and the file itself is opened without following a link (readRegularFile).
 */
function noLinkOnTheWay(outDir: string, file: string): boolean {
  const folders = file.split('/').slice(0, -1)
  return folders.every(
    (_, i) => lstatSync(join(outDir, ...folders.slice(0, i + 1)), { throwIfNoEntry: false })?.isDirectory() === true,
  )
}

/** The content hash a store records for a file of its output: a page's from its row, the store's own as given. */
function recordedHashes(store: BuildStore, storeHash: string): (path: string) => string | undefined {
  const { pages, files } = store
  return (path) => {
    const page = pageOfFile(path)
    if (page && pages.has(page[0])) return pages.fileHash(page[0], page[1])
    return path === BUILD_STORE_FILE ? storeHash : files.get(path)
  }
}

/**
 * What a long-lived builder (`site publish`'s) knows of its output folder between builds: `last`, the output
 * as its last build committed it, kept in memory. An `--only` build takes it as the previous output instead of
 * walking the folder and parsing the state again (seconds at 30,000 pages), when the state and `latest.json`
 * are still the files that build left (lstat stamps): another build over the folder, a restored cache or a
 * deploy tool that replaced them makes the next build read the folder as untrusted again. Files a process
 * outside `site` changes in place between builds are not looked for by an `--only` build (it reads and writes
 * only what it changes, and never through a link: see applyToOutput); every full build (`site publish`
 * reconciles with one) reads and checks every file it keeps, as `site build` does.
 */
export interface OutputMemory {
  last: CommittedOutput | undefined
}

/** An output as a build of this process committed it. */
export interface CommittedOutput {
  outDir: string
  /** Its state as the build wrote it (its pages over the build's string pool). */
  store: BuildStore
  /** The state's page lines as rendered, of which the next state takes the parts that did not change. */
  lines?: StoreLines
  /** The lines its build id was digested from, of which the next id takes the parts that did not change. */
  idLines?: IdLines
  /** Its manifest's `prerendered`: its pages and redirect sources, sorted. */
  prerendered: readonly string[]
  /** Every file of it (the state's own included): path -> content hash (see hashContents). */
  hashes: ReadonlyMap<string, string>
  /** The lstat stamps of its state and `latest.json` after the commit (sealOf). */
  seal: string
}

/** The lstat stamps of an output's state and `latest.json`; '' when either is not a regular file. */
export function sealOf(outDir: string): string {
  const stamps: string[] = []
  for (const file of [BUILD_STORE_FILE, LATEST_MANIFEST_FILE]) {
    const stamp = fileStamp(join(outDir, file))
    if (stamp === undefined) return ''
    stamps.push(stamp)
  }
  return stamps.join(' ')
}

/** Whether `last` is what OUT holds still, as far as its state and latest.json tell, over the pool the build uses. */
function isUntouched(last: CommittedOutput, outDir: string, pool: StringPool | undefined): boolean {
  if (last.outDir !== outDir || (pool !== undefined && pool !== last.store.pages.pool)) return false
  const seal = sealOf(outDir)
  return seal !== '' && seal === last.seal
}

/** The previous output as a build of this process committed it (see OutputMemory). */
function lastOutput(last: CommittedOutput): PreviousOutput {
  const { pages, files, ...store } = last.store
  const { hashes } = last
  const recordedHash = (path: string) => hashes.get(path)
  return {
    otherFiles: files,
    store,
    pages,
    redirects: new Map(store.redirects.map((r) => [r.from, r])),
    disk: { files: hashes, emptyDirs: [] },
    hashes,
    unlisted: [],
    changed: () => [],
    recordedHashOf: recordedHash,
    hashOf: recordedHash,
  }
}

/**
 * Checks kept files against the state by their bytes: a file is kept only when its content hash on disk
 * is the one the state records (read once, when the build would keep it, and remembered for the run).
 * Verifying by hash rather than by size and time keeps the state the same bytes a build from scratch
 * writes, and costs a read of each kept file (about 0.05 ms for a page's 75 KB). A file the last build over
 * OUT checked against the same hash, with the stamp it had then (`recorded`, see verified.ts), was not
 * written since: it is not read again.
 */
function createVerifier(outDir: string, disk: OutputListing, recorded: VerifiedFiles) {
  const { files, stamps } = disk
  const checked = new Map<string, boolean>()
  const read = (path: string, hash: string): boolean => {
    const size = files.get(path)
    const bytes = size === undefined ? undefined : readRegularFileSync(join(outDir, path), size)
    return bytes !== undefined && bytes.length === size && hashContents(bytes) === hash
  }
  return {
    check(path: string, hash: string): boolean {
      let ok = checked.get(path)
      if (ok === undefined) {
        const stamp = stamps.get(path)
        ok = (stamp !== undefined && recorded.get(path) === verifiedAs(stamp, hash)) || read(path, hash)
        checked.set(path, ok)
      }
      return ok
    },
    stamp: (path: string): string | undefined => (checked.get(path) ? stamps.get(path) : undefined),
    failed: () => [...checked].flatMap(([path, ok]) => (ok ? [] : [path])),
  }
}
