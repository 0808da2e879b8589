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
import type { ResolvedSite } from '../config/types.js'
import { compareStrings, isRecord } from '../shared/values.js'
import { type PageRow, PageTable, StringPool } from './page-table.js'

/** The store's format; a store of another format is not read (the build starts from scratch). */
export const STORE_FORMAT = 2

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
 * hash of _payload.json, canonical naming another page or null].
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
]

const digest = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16)

/**
 * A digest of the options that shape what a build outputs: every resolved option but where the
 * output goes, how fast it is built and request limits. The API URL and headers count (another
 * API is other content) but appear only inside the digest.
 */
export function configDigest(site: ResolvedSite): string {
  const { build: _build, api, ...rest } = site
  const { timeoutMs: _timeout, maxResponseBytes: _max, ...apiRest } = api
  return digest(JSON.stringify({ ...rest, api: apiRest }))
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
 * The store as JSON Lines, in parts (for FileWriter.writeParts), everything sorted: two builds of
 * the same content write the same bytes.
 */
export function* renderStoreParts(store: BuildStore): Iterable<string> {
  const { pages: table, files, ...head } = store
  const { pool } = table
  const sorted = [...table.paths()].sort(compareStrings)
  // each pool id's line among the paths: the pages' own first, then the paths only their links name;
  // page rows are made per part below, so that no more than a part of them is in memory at once
  const index = new Map<number, number>(sorted.map((path, i) => [pool.id(path), i]))
  const paths = sorted.map((path) => pool.id(path))
  const listPath = (id: number): void => {
    if (index.has(id)) return
    index.set(id, paths.length)
    paths.push(id)
  }
  for (const path of sorted) table.forEachPathId(path, listPath)
  const first: FirstLine = {
    ...head,
    redirects: [...head.redirects].sort((a, b) => compareStrings(a.from, b.from)),
    notFound: [...head.notFound].sort((a, b) => compareStrings(a.path, b.path)),
    files: Object.fromEntries([...files].sort(([a], [b]) => compareStrings(a, b))),
    paths: paths.length,
    pages: sorted.length,
  }
  yield `${JSON.stringify(first)}\n`
  yield* inParts(paths, (id) => JSON.stringify(pool.at(id)))
  yield* inParts(sorted, (path) => {
    const row = table.rowOf(path)!
    const line: PageLine = [
      pool.at(row.locale),
      row.uid ?? null,
      row.noIndex ? 1 : 0,
      row.alternates.map(([hreflang, id]): [string, number] => [pool.at(hreflang), index.get(id)!]),
      row.nav.map((id) => index.get(id)!),
      row.content.map((id) => index.get(id)!),
      row.files[0],
      row.files[1],
      row.canonical ?? null,
    ]
    return JSON.stringify(line)
  })
}

/** The store as one string (small sites, tests). */
export const renderStore = (store: BuildStore): string => [...renderStoreParts(store)].join('')

const isString = (v: unknown): v is string => typeof v === 'string'
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString)
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0

const isRedirect = (v: unknown): v is StoredRedirect =>
  isRecord(v) &&
  isString(v.from) &&
  isString(v.to) &&
  typeof v.statusCode === 'number' &&
  isString(v.locale) &&
  (v.kind === 'api' || v.kind === 'slug') &&
  (v.uid === undefined || typeof v.uid === 'number')

function isFirstLine(v: Record<string, unknown>): boolean {
  return (
    isString(v.engine) &&
    isString(v.config) &&
    isString(v.id) &&
    isString(v.clientVersion) &&
    isRecord(v.locales) &&
    Object.values(v.locales).every((l) => isRecord(l) && isString(l.initialDataUrl)) &&
    Array.isArray(v.redirects) &&
    v.redirects.every(isRedirect) &&
    Array.isArray(v.notFound) &&
    v.notFound.every((n) => isRecord(n) && isString(n.path) && typeof n.status === 'number') &&
    Array.isArray(v.builds) &&
    v.builds.every((b) => isRecord(b) && isString(b.id) && isString(b.clientVersion) && isStringList(b.files)) &&
    isRecord(v.files) &&
    Object.values(v.files).every(isString) &&
    isCount(v.paths) &&
    isCount(v.pages) &&
    v.pages <= v.paths
  )
}

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

/** A page line as pool ids; undefined when it is damaged. `ids[i]` is the pool id of path line `i`. */
function toRow(value: unknown, path: number, ids: Int32Array, pool: StringPool): PageRow | undefined {
  if (!Array.isArray(value) || value.length !== 9) return undefined
  const [locale, uid, noIndex, alternates, nav, content, html, payload, canonical] = value as unknown[]
  const links = { nav: idsOf(nav, ids), content: idsOf(content, ids) }
  if (!isString(locale) || !(uid === null || typeof uid === 'number') || (noIndex !== 0 && noIndex !== 1))
    return undefined
  if (!links.nav || !links.content || !isString(html) || !isString(payload) || !Array.isArray(alternates))
    return undefined
  if (!(canonical === null || isString(canonical))) return undefined
  const pairs: Array<readonly [number, number]> = []
  for (const a of alternates) {
    const id = Array.isArray(a) && a.length === 2 && isString(a[0]) ? idOf(a[1], ids) : undefined
    if (id === undefined) return undefined
    pairs.push([pool.id(a[0]), id])
  }
  return {
    path,
    locale: pool.id(locale),
    uid: uid === null ? undefined : uid,
    noIndex: noIndex === 1,
    alternates: pairs,
    nav: links.nav,
    content: links.content,
    files: [html, payload],
    canonical: canonical === null ? undefined : canonical,
  }
}

/**
 * Reads `text` (a string, or UTF-8 bytes as read from disk) from the start: each call takes the next
 * `count` lines as one string (joined by newlines), or undefined when fewer are left. Nothing is split
 * all at once.
 */
function lineReader(text: string | Uint8Array): (count?: number) => string | undefined {
  const bytes = typeof text === 'string' ? undefined : Buffer.from(text.buffer, text.byteOffset, text.byteLength)
  const length = bytes ? bytes.length : (text as string).length
  const newlineAt = (from: number): number => (bytes ? bytes.indexOf(10, from) : (text as string).indexOf('\n', from))
  let start = 0
  return (count = 1) => {
    let at = start
    let end = start
    for (let n = 0; n < count; n++) {
      if (at >= length) return undefined
      const newline = newlineAt(at)
      end = newline === -1 ? length : newline
      at = end + 1
    }
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

/**
 * The values of the next `count` lines (one JSON value each), read in batches: `count` values,
 * or undefined when a line is missing or is not one JSON value.
 */
function* parseLines(next: (count: number) => string | undefined, count: number): Iterable<unknown[] | undefined> {
  for (let done = 0; done < count; done += LINES_PER_BATCH) {
    const size = Math.min(LINES_PER_BATCH, count - done)
    const text = next(size)
    // a line is one JSON value: a missing line, an empty one or one of two values fails the batch
    const values = text === undefined ? undefined : parseLine(`[${text.replaceAll('\n', ',')}]`)
    yield Array.isArray(values) && values.length === size ? values : undefined
  }
}

/**
 * Reads store text (or its UTF-8 bytes): the store, or why it cannot be used. Every field is checked, so a damaged
 * or foreign file is refused as a whole, never half-used. Read line by line into a page table
 * whose paths are `pool`'s strings: the text's parse tree is never whole in memory.
 */
export function parseStore(
  text: string | Uint8Array,
  pool: StringPool = new StringPool(),
): { store: BuildStore } | { reason: string } {
  const next = lineReader(text)
  const first = parseLine(next())
  if (!isRecord(first)) return { reason: 'its build state does not start with a JSON object' }
  if (first.format !== STORE_FORMAT)
    return { reason: `its build state has format ${JSON.stringify(first.format)}, this site reads ${STORE_FORMAT}` }
  const damaged = { reason: 'its build state is damaged (a line is missing, not JSON, or of the wrong shape)' }
  if (!isFirstLine(first)) return damaged
  const { paths: pathCount, pages: pageCount, files, ...head } = first as unknown as FirstLine
  const ids = new Int32Array(pathCount)
  let line = 0
  for (const values of parseLines(next, pathCount)) {
    if (!values) return damaged
    for (const path of values) {
      if (!isString(path)) return damaged
      ids[line++] = pool.id(path)
    }
  }
  const pages = new PageTable(pool)
  line = 0
  for (const values of parseLines(next, pageCount)) {
    if (!values) return damaged
    for (const value of values) {
      const row = toRow(value, ids[line++]!, ids, pool)
      if (!row || pages.has(pool.at(row.path))) return damaged
      pages.addRow(row)
    }
  }
  const rest = next()
  if (rest !== undefined && (rest !== '' || next() !== undefined)) return damaged
  return { store: { ...head, pages, files: new Map(Object.entries(files)) } }
}
