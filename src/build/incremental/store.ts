/**
 * The build store: what a build leaves in OUT for the next one (`_site/builds/state.jsonl`),
 * so that OUT itself is the state between builds, wherever CI keeps it (a cache, the previous
 * deploy). Versioned (STORE_FORMAT), written last by a build and read first by the next.
 *
 * A host serves it like any file, so it holds only public facts, what the pages show anyway:
 * each page's path, locale, uid, sitemap facts and links; the redirects; the content hash of
 * every file; the content-hashed files of the last builds. The page data itself is each page's
 * `_payload.json`. The config (API URL and headers included) is recorded as a one-way digest only.
 *
 * JSON Lines, compact, as it grows with the site (30,000 pages): every path once on a line of its
 * own, pages as tuples that point at them by index, written in parts (no one large string) and read
 * line by line into a page table (page-table.ts), so neither text nor parse tree is whole in memory
 * beside the table. Pure: render and parse, no I/O (previous.ts reads it from OUT).
 */
import { createHash } from 'node:crypto'
import type { ResolvedSite } from '../../config/types.js'
import { LOCALE_CODE_RE } from '../../config/validate.js'
import { MAX_FILE_REFS_PER_PAGE } from '../../shared/constants.js'
import { isFileRef } from '../../shared/file-refs.js'
import { toHtmlFile, toPayloadFile } from '../../shared/url.js'
import { compareStrings, isRecord } from '../../shared/values.js'
import { type PageRow, PageTable, StringPool } from '../page-table.js'
import { isStoredFilePath, isStoredHead, isStoredPagePath, isString, type StoreCheckOptions } from './store-checks.js'

/** The store's format; a store of another format is not read (the build starts from scratch). */
export const STORE_FORMAT = 4

/** A redirect the next build must know about: the API's (a redirect record at a crawled path) or a slug change's. */
export interface StoredRedirect {
  from: string
  to: string
  statusCode: number
  locale: string
  /** `slug`: the page `uid` moved from `from` to `to` (slug history); `api`: the API answered with a redirect record. */
  kind: 'api' | 'slug'
  uid?: number
}

/** A build that changed content-hashed files, and those files (kept in OUT for the next builds, see keepBuilds). */
export interface StoredBuild {
  id: string
  clientVersion: string
  files: string[]
}

/** Everything of the store but its pages and files. */
export interface StoreHead {
  format: typeof STORE_FORMAT
  /** The engine that wrote it (site's version and a digest of its code): page data is reused only by the same. */
  engine: string
  /** A digest of the options that shape the output (see configDigest). */
  config: string
  id: string
  clientVersion: string
  /** Per locale: its content-hashed initial data file. */
  locales: Record<string, { initialDataUrl: string }>
  /** API redirects and slug history. */
  redirects: StoredRedirect[]
  /** Crawled paths the API answered with 404 (broken links). */
  notFound: Array<{ path: string; status: number }>
  /** The content-hashed files of the last builds that changed them, newest first. */
  builds: StoredBuild[]
}

export interface BuildStore extends StoreHead {
  pages: PageTable
  /** Every other file of the output (not a page's, not the store itself): path -> content hash. */
  files: ReadonlyMap<string, string>
}

/**
 * The first line of the file: the head, the other files' hashes, and how many path and page lines follow.
 * Then one line per path (a JSON string): the pages' paths, sorted, then the other paths their links name.
 * Then one line per page, in the order of their paths: [locale, uid or null, noIndex (0 or 1),
 * alternates as [hreflang, path index], nav links, content links (path indexes), hash of index.html,
 * hash of _payload.json, canonical naming another page or null, the CMS files the page names, its link digest
 * or ''].
 */
type FirstLine = StoreHead & { files: Record<string, string>; paths: number; pages: number }

type PageLine = [
  string,
  number | null,
  0 | 1,
  Array<[string, number]>,
  number[],
  number[],
  string,
  string,
  string | null,
  string[],
  string,
]

const digest = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16)

/**
 * The API URL without what may be a secret: no user or password, and of its query only the names.
 * Example: 'https://u:pw@cms.example/api?token=x' -> 'https://cms.example/api?token'.
 */
function publicApiUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl)
    const names = [...new Set(url.searchParams.keys())].sort()
    return `${url.origin}${url.pathname}${names.length ? `?${names.join('&')}` : ''}`
  } catch {
    return ''
  }
}

/**
 * A digest of the options that shape what a build outputs: every resolved option but where the
 * output goes, how fast it is built and request limits. The digest is published with the build
 * state and is not salted, so it covers no secret: the API URL without user, password and query
 * values, and the names of the API headers, never their values (a changed token is the same API).
 */
export function configDigest(site: ResolvedSite): string {
  const { build: _build, api, ...rest } = site
  const { timeoutMs: _timeout, maxResponseBytes: _max, baseUrl, headers, ...apiRest } = api
  const publicApi = { ...apiRest, baseUrl: publicApiUrl(baseUrl), headers: Object.keys(headers).sort() }
  return digest(JSON.stringify({ ...rest, api: publicApi }))
}

/** The engine's identity in the store: its version plus a digest of its own code (see currentEngine in previous.ts). */
export const engineId = (version: string, codeDigest: string): string => `${version}+${codeDigest}`

/** Lines are yielded in parts of about this many. */
const LINES_PER_PART = 500

function* inParts<T>(items: readonly T[], line: (item: T) => string): Iterable<string> {
  for (let i = 0; i < items.length; i += LINES_PER_PART) {
    let part = ''
    for (const item of items.slice(i, i + LINES_PER_PART)) part += `${line(item)}\n`
    yield part
  }
}

/**
 * A store's path and page lines as written, for the next store of a long-lived builder (see renderStoreParts):
 * a part whose lines did not change is written again as it is, not made again (30,000 pages: 12 MB of JSON).
 */
export interface StoreLines {
  table: PageTable
  /** The pages' paths, sorted: what the first of the path lines name. */
  pages: readonly string[]
  /** The pool id of each path line, in order: what the page lines' indexes point at. */
  paths: Int32Array
  /** The path lines, in parts, as written. */
  pathParts: Uint8Array[]
  /** The page lines, LINES_PER_PART pages a part, in path order, as written. */
  pageParts: Uint8Array[]
}

const sameIds = (a: Int32Array, b: Int32Array): boolean => a.length === b.length && a.every((id, i) => id === b[i])

/** `part` as it is written, and kept in `kept` (as bytes) when given. */
const written = (part: string, kept: Uint8Array[] | undefined): string | Uint8Array => {
  if (!kept) return part
  const bytes = Buffer.from(part)
  kept.push(bytes)
  return bytes
}

/** The pages of a store that are the last store's own but for those built again (an `--only` build that kept the others whole). */
export interface KeptRows {
  /** The table every other row was copied from. */
  from: PageTable
  rebuilt: ReadonlySet<string>
}

/** The path lines' pool ids (the pages' in path order, then the paths only their links name), and each pool id's line (-1: none). */
interface PathListing {
  pages: readonly string[]
  paths: Int32Array
  index: Int32Array
}

function listPaths(table: PageTable): PathListing {
  const { pool } = table
  const pages = [...table.paths()].sort(compareStrings)
  // an array over the pool's ids, as a page line looks up some fifty (1.5 million for 30,000 pages)
  const index = new Int32Array(pool.size).fill(-1)
  const paths = pages.map((path) => pool.id(path))
  for (const [i, id] of paths.entries()) index[id] = i
  const listPath = (id: number): void => {
    if (index[id] !== -1) return
    index[id] = paths.length
    paths.push(id)
  }
  for (const path of pages) table.forEachPathId(path, listPath)
  return { pages, paths: Int32Array.from(paths), index }
}

/**
 * The last store's listing, when `table` holds the last store's pages with only `kept.rebuilt` built again and
 * those name the same paths as before (nothing else can have changed it); undefined otherwise.
 */
function keptListing(
  table: PageTable,
  last: StoreLines | undefined,
  kept: KeptRows | undefined,
): PathListing | undefined {
  if (!last || !kept || kept.from !== last.table) return undefined
  const { pool } = table
  if (last.table.pool !== pool || table.size !== last.table.size) return undefined
  for (const path of kept.rebuilt) {
    const id = pool.find(path)
    if (id === undefined || !table.sameReferences(id, last.table)) return undefined
  }
  const index = new Int32Array(pool.size).fill(-1)
  for (let i = 0; i < last.paths.length; i++) index[last.paths[i]!] = i
  return { pages: last.pages, paths: last.paths, index }
}

/**
 * The store as JSON Lines, in parts (for FileWriter.writeParts), everything sorted: two builds of
 * the same content write the same bytes. `lines.last` is what a long-lived builder's last store over the
 * same pool wrote (StoreLines): when the path lines are the same, they and each part of page lines whose
 * pages all have the same row there are written as they were; `lines.done` receives this store's lines.
 * With `lines.kept`, only the parts of the pages built again are compared, and the last listing is taken as it is.
 * `lines.listed` receives the pages' paths, sorted, once they are.
 */
export function* renderStoreParts(
  store: BuildStore,
  lines: {
    last?: StoreLines
    done?(lines: StoreLines): void
    kept?: KeptRows
    listed?(pages: readonly string[]): void
  } = {},
): Iterable<string | Uint8Array> {
  const { pages: table, files, ...head } = store
  const { pool } = table
  const { last, done } = lines
  const lastListing = keptListing(table, last, lines.kept)
  // page rows are made per part below, so that no more than a part of them is in memory at once
  const { pages: sorted, paths: pathIds, index } = lastListing ?? listPaths(table)
  lines.listed?.(sorted)
  const first: FirstLine = {
    ...head,
    redirects: [...head.redirects].sort((a, b) => compareStrings(a.from, b.from)),
    notFound: [...head.notFound].sort((a, b) => compareStrings(a.path, b.path)),
    files: Object.fromEntries([...files].sort(([a], [b]) => compareStrings(a, b))),
    paths: pathIds.length,
    pages: sorted.length,
  }
  yield `${JSON.stringify(first)}\n`
  const same =
    lastListing || (last !== undefined && last.table.pool === pool && sameIds(last.paths, pathIds)) ? last : undefined
  // the parts that may differ from the last store's: every one, or those of the pages built again
  const compared =
    lastListing &&
    new Set([...lines.kept!.rebuilt].map((path) => Math.floor(index[pool.find(path)!]! / LINES_PER_PART)))
  // kept only for a builder that asks: a one-shot build holds one part at a time
  const keptLines = done && {
    table,
    pages: sorted,
    paths: pathIds,
    pathParts: [] as Uint8Array[],
    pageParts: [] as Uint8Array[],
  }
  if (same) {
    keptLines?.pathParts.push(...same.pathParts)
    yield* same.pathParts
  } else
    for (const part of inParts([...pathIds], (id) => JSON.stringify(pool.at(id))))
      yield written(part, keptLines?.pathParts)
  for (let at = 0, k = 0; at < sorted.length; at += LINES_PER_PART, k++) {
    const end = Math.min(at + LINES_PER_PART, sorted.length)
    let part = same?.pageParts[k]
    if (!compared || compared.has(k))
      for (let i = at; part !== undefined && i < end; i++)
        if (!table.sameRow(pathIds[i]!, same!.table)) part = undefined
    if (part) keptLines?.pageParts.push(part)
    yield part ?? written(pageLines(table, sorted.slice(at, end), index), keptLines?.pageParts)
  }
  if (keptLines) done?.(keptLines)
}

/** The lines of `pages`, each ending in a newline (see PageLine). */
function pageLines(table: PageTable, pages: readonly string[], index: Int32Array): string {
  const { pool } = table
  let part = ''
  for (const path of pages) {
    const row = table.rowOf(path)!
    const line: PageLine = [
      pool.at(row.locale),
      row.uid ?? null,
      row.noIndex ? 1 : 0,
      row.alternates.map(([hreflang, id]): [string, number] => [pool.at(hreflang), index[id]!]),
      row.nav.map((id) => index[id]!),
      row.content.map((id) => index[id]!),
      row.files[0],
      row.files[1],
      row.canonical ?? null,
      row.fileRefs.map((id) => pool.at(id)),
      row.linkDigest,
    ]
    part += `${JSON.stringify(line)}\n`
  }
  return part
}

/** The store as one string (small sites, tests). */
export const renderStore = (store: BuildStore, lines?: Parameters<typeof renderStoreParts>[1]): string =>
  [...renderStoreParts(store, lines)]
    .map((part) => (typeof part === 'string' ? part : Buffer.from(part).toString()))
    .join('')

/** The pool id of path line `i`, or undefined for no such line. */
const idOf = (i: unknown, ids: Int32Array): number | undefined =>
  Number.isInteger(i) && (i as number) >= 0 && (i as number) < ids.length ? ids[i as number] : undefined

function idsOf(list: unknown, ids: Int32Array): number[] | undefined {
  if (!Array.isArray(list)) return undefined
  const out: number[] = []
  for (const i of list) {
    const id = idOf(i, ids)
    if (id === undefined) return undefined
    out.push(id)
  }
  return out
}

/** A content hash as hashContents writes it (16 hex digits), or '' for a file a page has not. */
const isFileHash = (v: unknown): v is string => isString(v) && /^(?:[0-9a-f]{16})?$/.test(v)

const isStoredUrl = (v: unknown): v is string =>
  isString(v) && v.length <= 4096 && !/[\s\u0000-\u001f\u007f-\u009f]/u.test(v)

/** A recorded hash, or '' for a file the disk does not have (the build writes it again). */
type VerifyFile = (path: string, hash: string) => string

/** A page line as pool ids; undefined when it is damaged. `ids[i]` is the pool id of path line `i`. */
function toRow(
  value: unknown,
  path: number,
  context: { ids: Int32Array; pool: StringPool; verify: VerifyFile; check: StoreCheckOptions },
): PageRow | undefined {
  const { ids, pool, verify, check } = context
  if (!Array.isArray(value) || value.length !== 11) return undefined
  const [locale, uid, noIndex, alternates, nav, content, html, payload, canonical, fileRefs, digest] =
    value as unknown[]
  const links = { nav: idsOf(nav, ids), content: idsOf(content, ids) }
  if (!check.locales.includes(locale as string) || (noIndex !== 0 && noIndex !== 1)) return undefined
  if (!(uid === null || (Number.isSafeInteger(uid) && (uid as number) > 0))) return undefined
  if (!links.nav || !links.content || !isFileHash(html) || !isFileHash(payload) || !Array.isArray(alternates))
    return undefined
  if (!(canonical === null || isStoredUrl(canonical))) return undefined
  if (!Array.isArray(fileRefs) || fileRefs.length > MAX_FILE_REFS_PER_PAGE || !fileRefs.every(isFileRef))
    return undefined
  if (!isFileHash(digest)) return undefined
  const pairs: Array<readonly [number, number]> = []
  for (const a of alternates) {
    const id = Array.isArray(a) && a.length === 2 && isString(a[0]) && a[0].length <= 35 ? idOf(a[1], ids) : undefined
    if (id === undefined) return undefined
    pairs.push([pool.id(a[0]), id])
  }
  const pagePath = pool.at(path)
  return {
    path,
    locale: pool.id(locale as string),
    uid: uid === null ? undefined : (uid as number),
    noIndex: noIndex === 1,
    alternates: pairs,
    nav: links.nav,
    content: links.content,
    fileRefs: fileRefs.map((ref: string) => pool.id(ref)),
    linkDigest: digest,
    files: [verify(toHtmlFile(pagePath), html), verify(toPayloadFile(pagePath), payload)],
    canonical: canonical === null ? undefined : canonical,
  }
}

/** A line longer than its limit: the state is refused before the line is decoded. */
class LineTooLong extends Error {}

/**
 * Reads `text` (a string, or UTF-8 bytes as read from disk) from the start: each call takes the next
 * `count` lines as one string (joined by newlines), or undefined when fewer are left; throws
 * LineTooLong when they take more than `count * maxLineBytes`. Nothing is split all at once.
 */
function lineReader(text: string | Uint8Array): (count: number, maxLineBytes: number) => string | undefined {
  const bytes = typeof text === 'string' ? undefined : Buffer.from(text.buffer, text.byteOffset, text.byteLength)
  const length = bytes ? bytes.length : (text as string).length
  const newlineAt = (from: number): number => (bytes ? bytes.indexOf(10, from) : (text as string).indexOf('\n', from))
  let start = 0
  return (count, maxLineBytes) => {
    let at = start
    let end = start
    for (let n = 0; n < count; n++) {
      if (at >= length) return undefined
      const newline = newlineAt(at)
      end = newline === -1 ? length : newline
      at = end + 1
    }
    if (end - start > count * maxLineBytes) throw new LineTooLong()
    const lines = bytes ? bytes.toString('utf8', start, end) : (text as string).slice(start, end)
    start = at
    return lines
  }
}

const parseLine = (line: string | undefined): unknown => {
  if (line === undefined) return undefined
  try {
    return JSON.parse(line)
  } catch {
    return undefined
  }
}

/** Lines are parsed this many at a time: one JSON.parse per batch, not per line. */
const LINES_PER_BATCH = 500
/** Longest path line (a JSON string of a path of at most MAX_PATH_LENGTH characters, escaped). */
const MAX_PATH_LINE_BYTES = 64 * 1024
/** Longest page line: a page's links are path indexes, thousands of them at most. */
const MAX_PAGE_LINE_BYTES = 4 * 1024 * 1024

/**
 * The values of the next `count` lines (one JSON value each), read in batches: `count` values,
 * or undefined when a line is missing or is not one JSON value.
 */
function* parseLines(
  next: (count: number, maxLineBytes: number) => string | undefined,
  count: number,
  maxLineBytes: number,
): Iterable<unknown[] | undefined> {
  for (let done = 0; done < count; done += LINES_PER_BATCH) {
    const size = Math.min(LINES_PER_BATCH, count - done)
    const text = next(size, maxLineBytes)
    // a line is one JSON value: a missing line, an empty one or one of two values fails the batch
    const values = text === undefined ? undefined : parseLine(`[${text.replaceAll('\n', ',')}]`)
    yield Array.isArray(values) && values.length === size ? values : undefined
  }
}

export interface ParseStoreOptions extends StoreCheckOptions {
  /** The build's one string per path (see BuildRun.pool). */
  pool?: StringPool
  /** Most paths (pages, redirects, broken links) a state may name: `build.maxPages`. */
  maxPaths: number
  /**
   * The output's regular files as they are on disk (see scanOutput). A file the state lists that is not
   * among them has its hash dropped, so the build writes it again. Without it every recorded hash is taken.
   */
  disk?: ReadonlyMap<string, unknown>
}

/**
 * A parsed store, and the files it lists that are not on disk; or why it cannot be used, with the locales it names
 * that the site no longer lists when that is why (see loadPrevious: the history of the others is kept).
 */
export type ParsedStore = { store: BuildStore; missing: string[] } | { reason: string; unlistedLocales?: string[] }

/**
 * Reads store text (or its UTF-8 bytes): the store, or why it cannot be used. Every field and entry is
 * checked (store-checks.ts), so a damaged, hostile or foreign file is refused as a whole, never
 * half-used. Read line by line into a page table whose paths are `pool`'s strings: the text's parse
 * tree is never whole in memory, and counts are checked before anything is allocated for them.
 */
export function parseStore(text: string | Uint8Array, options: ParseStoreOptions): ParsedStore {
  try {
    return readStore(text, options)
  } catch (error) {
    if (error instanceof LineTooLong) return { reason: 'its build state has a line longer than a state ever writes' }
    throw error
  }
}

function readStore(text: string | Uint8Array, options: ParseStoreOptions): ParsedStore {
  const { pool = new StringPool(), disk } = options
  const next = lineReader(text)
  const first = parseLine(next(1, text.length))
  if (!isRecord(first)) return { reason: 'its build state does not start with a JSON object' }
  if (first.format !== STORE_FORMAT)
    return { reason: `its build state has format ${JSON.stringify(first.format)}, this site reads ${STORE_FORMAT}` }
  const damaged = { reason: 'its build state is damaged (a line is missing, not JSON, or of the wrong shape)' }
  const unlisted = isRecord(first.locales) ? Object.keys(first.locales).filter((l) => !options.locales.includes(l)) : []
  // a state of a build whose i18n.locales listed more is not damaged: the configuration changed (its note says so)
  if (unlisted.length > 0 && unlisted.every((l) => LOCALE_CODE_RE.test(l)))
    return {
      reason: `its build state is of a configuration with locales i18n.locales no longer lists (${unlisted.slice(0, 5).join(', ')})`,
      unlistedLocales: unlisted,
    }
  if (!isStoredHead(first, options)) {
    // a redirect to an external URL on what is now baseUrl's origin is checked into a site path: baseUrl changed
    if (options.baseUrl && isStoredHead(first, { ...options, baseUrl: undefined }))
      return { reason: 'its build state is of a configuration with another baseUrl (a redirect leaves for it)' }
    return { reason: 'its build state has a bad entry (a path, redirect or count)' }
  }
  const { paths: pathCount, pages: pageCount, files: fileHashes, ...head } = first as unknown as FirstLine
  const missing: string[] = []
  const verify: VerifyFile = (path, hash) => {
    if (!hash || !disk || disk.has(path)) return hash
    missing.push(path)
    return ''
  }
  const files = new Map<string, string>()
  for (const [path, hash] of Object.entries(fileHashes)) {
    if (!isStoredFilePath(path) || !isFileHash(hash) || !hash) return { reason: 'its build state has a bad file entry' }
    if (verify(path, hash)) files.set(path, hash)
  }
  const ids = new Int32Array(pathCount)
  let line = 0
  for (const values of parseLines(next, pathCount, MAX_PATH_LINE_BYTES)) {
    if (!values) return damaged
    for (const path of values) {
      if (!isStoredPagePath(path, options)) return { reason: 'its build state has a bad page path' }
      ids[line++] = pool.id(path)
    }
  }
  const pages = new PageTable(pool)
  const context = { ids, pool, verify, check: options }
  line = 0
  for (const values of parseLines(next, pageCount, MAX_PAGE_LINE_BYTES)) {
    if (!values) return damaged
    for (const value of values) {
      const row = toRow(value, ids[line++]!, context)
      if (!row || pages.has(pool.at(row.path))) return damaged
      pages.addRow(row)
    }
  }
  const rest = next(1, MAX_PATH_LINE_BYTES)
  if (rest !== undefined && (rest !== '' || next(1, MAX_PATH_LINE_BYTES) !== undefined)) return damaged
  return { store: { ...head, pages, files }, missing }
}
