/**
 * The pages of a build as it keeps them, packed: one row per page in typed arrays, every path
 * and hreflang named by the id of one shared string (StringPool). A site of 30,000 pages has
 * some 500,000 links, alternates and file hashes; as objects (PageRecord) they took about
 * 1 KB a page, twice over in a build with a previous output (its pages and this build's), and
 * V8 lets the heap grow to four times what is live. Packed, a page takes about 200 bytes.
 *
 * Rows are added once per path (the crawl visits a path once) and read back as PageRecord
 * objects made on demand: `get(path)`, `values()` (in the order they were added).
 */
import { MAX_FILE_REFS_PER_PAGE } from '../shared/constants.js'
import type { PageFact, PageRecord } from './types.js'

/** One string per distinct value (paths, hreflangs, locales) with a small integer id for each. */
export class StringPool {
  readonly #ids = new Map<string, number>()
  readonly #values: string[] = []

  /** The id of `value`, added when new. */
  id(value: string): number {
    let id = this.#ids.get(value)
    if (id === undefined) {
      id = this.#values.length
      this.#ids.set(value, id)
      this.#values.push(value)
    }
    return id
  }

  /** The id of `value` if the pool has it. */
  find(value: string): number | undefined {
    return this.#ids.get(value)
  }

  at(id: number): string {
    const value = this.#values[id]
    if (value === undefined) throw new RangeError(`no string with id ${id}`)
    return value
  }

  /** The pool's own string equal to `value`: every user of a path shares one string. */
  intern(value: string): string {
    return this.#values[this.id(value)]!
  }

  get size(): number {
    return this.#values.length
  }
}

/** Who a page is: its path, locale and uid. */
export type PageIdentity = Pick<PageRecord, 'path' | 'locale' | 'uid'>

/** A page as the table hands it back: its record plus the content hashes of its `index.html` and `_payload.json`. */
export type StoredPageRecord = PageRecord & { files: [html: string, payload: string] }

/** A row as stored: ids into the pool (see PageTable.addRow). */
export interface PageRow {
  path: number
  locale: number
  uid: number | undefined
  noIndex: boolean
  /** [hreflang id, path id] pairs. */
  alternates: ReadonlyArray<readonly [number, number]>
  nav: readonly number[]
  content: readonly number[]
  /** The CMS files its answer names (see shared/file-refs.ts). */
  fileRefs: readonly number[]
  /** What other pages can show of it (api/link-digest.ts), '' when not known. */
  linkDigest: string
  files: readonly [string, string]
  canonical: string | undefined
}

const INITIAL_ROWS = 256

function grown<T extends Int32Array | Float64Array | Uint8Array>(array: T, needed: number): T {
  if (needed <= array.length) return array
  let length = array.length * 2
  while (length < needed) length *= 2
  const next = new (array.constructor as new (length: number) => T)(length)
  next.set(array)
  return next
}

export class PageTable {
  readonly pool: StringPool
  /** pool id of a page's path -> its row */
  readonly #rowOfPath = new Map<number, number>()
  #size = 0
  #path = new Int32Array(INITIAL_ROWS)
  #locale = new Int32Array(INITIAL_ROWS)
  #uid = new Float64Array(INITIAL_ROWS)
  #noIndex = new Uint8Array(INITIAL_ROWS)
  /** Per row: where its references start in #refs, then how many alternates, nav links, content links and files it has. */
  #refStart = new Int32Array(INITIAL_ROWS)
  #counts = new Int32Array(INITIAL_ROWS * 4)
  /** Alternates as hreflang and path id pairs, then nav path ids, content path ids and file ids, row after row. */
  #refs = new Int32Array(INITIAL_ROWS * 16)
  #refLength = 0
  /** Two per row: the hashes of `index.html` and `_payload.json` ('' when not known yet). */
  #files: string[] = []
  /** Per row: its link digest ('' when not known). */
  #digests: string[] = []
  readonly #canonical = new Map<number, string>()

  constructor(pool: StringPool = new StringPool()) {
    this.pool = pool
  }

  /** A table of these records (tests, small sites). */
  static of(records: Iterable<PageRecord & { files?: readonly [string, string] }>, pool?: StringPool): PageTable {
    const table = new PageTable(pool)
    for (const record of records) table.add(record)
    return table
  }

  get size(): number {
    return this.#size
  }

  has(path: string): boolean {
    return this.#row(path) !== undefined
  }

  /** Adds a page; its path must not be in the table yet. */
  add(record: PageRecord & { files?: readonly [string, string] }): void {
    const { pool } = this
    this.addRow({
      path: pool.id(record.path),
      locale: pool.id(record.locale),
      uid: record.uid,
      noIndex: record.noIndex,
      alternates: record.alternates.map((a) => [pool.id(a.hreflang), pool.id(a.path)] as const),
      nav: record.links.nav.map((path) => pool.id(path)),
      content: record.links.content.map((path) => pool.id(path)),
      fileRefs: (record.fileRefs ?? []).map((ref) => pool.id(ref)),
      linkDigest: record.linkDigest ?? '',
      files: record.files ?? ['', ''],
      canonical: record.canonical,
    })
  }

  /** Adds a page given as pool ids (the store reads them so); its path must not be in the table yet. */
  addRow(row: PageRow): void {
    let at = this.#append(row, [row.alternates.length, row.nav.length, row.content.length, row.fileRefs.length])
    const refs = this.#refs
    for (const [hreflang, path] of row.alternates) {
      refs[at++] = hreflang
      refs[at++] = path
    }
    for (const id of row.nav) refs[at++] = id
    for (const id of row.content) refs[at++] = id
    for (const id of row.fileRefs) refs[at++] = id
  }

  /**
   * Adds the page at `path` of `other`, a table over the same pool (a previous build's page kept as it
   * is), row to row: nothing is decoded. False when `other` has no such page.
   */
  copyFrom(other: PageTable, path: string): boolean {
    if (other.pool !== this.pool) throw new Error('copyFrom needs tables over the same string pool')
    const i = other.#row(path)
    if (i === undefined) return false
    this.#copyRow(other, i)
    return true
  }

  /**
   * Adds every page of `other` (a table over the same pool), row to row, in `other`'s order: a page `instead`
   * (over the same pool) has is taken from there. Resolves to how many were added per locale.
   */
  copyAllFrom(other: PageTable, instead?: PageTable): Map<string, number> {
    if (other.pool !== this.pool || (instead && instead.pool !== this.pool))
      throw new Error('copyAllFrom needs tables over the same string pool')
    const first = this.#size
    if (first > 0 || !this.#cloneOf(other, instead))
      for (let i = 0; i < other.#size; i++) {
        const j = instead === undefined ? undefined : instead.#rowOfPath.get(other.#path[i]!)
        if (j === undefined) this.#copyRow(other, i)
        else this.#copyRow(instead!, j)
      }
    const byLocale = new Map<number, number>()
    for (let i = first; i < this.#size; i++) byLocale.set(this.#locale[i]!, (byLocale.get(this.#locale[i]!) ?? 0) + 1)
    return new Map([...byLocale].map(([locale, count]) => [this.pool.at(locale), count]))
  }

  /**
   * An empty table made `other`'s copy array by array (30,000 rows: a few ms, against 15 row by row), then
   * `instead`'s rows written over theirs in place; false, and nothing done, when one of those does not fit (it
   * has more or fewer references than the row it replaces).
   */
  #cloneOf(other: PageTable, instead: PageTable | undefined): boolean {
    const over: Array<[row: number, from: number]> = []
    const rows = instead === undefined ? 0 : instead.#size
    for (let j = 0; j < rows; j++) {
      const i = other.#rowOfPath.get(instead!.#path[j]!)
      if (i === undefined) continue
      for (let k = 0; k < 4; k++) if (instead!.#counts[j * 4 + k] !== other.#counts[i * 4 + k]) return false
      over.push([i, j])
    }
    const size = other.#size
    this.#size = size
    this.#path = other.#path.slice(0, size)
    this.#locale = other.#locale.slice(0, size)
    this.#uid = other.#uid.slice(0, size)
    this.#noIndex = other.#noIndex.slice(0, size)
    this.#refStart = other.#refStart.slice(0, size)
    this.#counts = other.#counts.slice(0, size * 4)
    this.#refs = other.#refs.slice(0, other.#refLength)
    this.#refLength = other.#refLength
    this.#files = other.#files.slice(0, size * 2)
    this.#digests = other.#digests.slice(0, size)
    for (const [i, canonical] of other.#canonical) this.#canonical.set(i, canonical)
    for (const [path, i] of other.#rowOfPath) this.#rowOfPath.set(path, i)
    for (const [i, j] of over) {
      const from = instead!
      this.#locale[i] = from.#locale[j]!
      this.#uid[i] = from.#uid[j]!
      this.#noIndex[i] = from.#noIndex[j]!
      this.#files[i * 2] = from.#files[j * 2]!
      this.#files[i * 2 + 1] = from.#files[j * 2 + 1]!
      this.#digests[i] = from.#digests[j]!
      const canonical = from.#canonical.get(j)
      if (canonical === undefined) this.#canonical.delete(i)
      else this.#canonical.set(i, canonical)
      const start = from.#refStart[j]!
      const length =
        from.#counts[j * 4]! * 2 + from.#counts[j * 4 + 1]! + from.#counts[j * 4 + 2]! + from.#counts[j * 4 + 3]!
      this.#refs.set(from.#refs.subarray(start, start + length), this.#refStart[i]!)
    }
    return true
  }

  #copyRow(other: PageTable, i: number): void {
    const counts = [
      other.#counts[i * 4]!,
      other.#counts[i * 4 + 1]!,
      other.#counts[i * 4 + 2]!,
      other.#counts[i * 4 + 3]!,
    ] as const
    const start = other.#refStart[i]!
    const at = this.#append(
      {
        path: other.#path[i]!,
        locale: other.#locale[i]!,
        uid: other.#uidAt(i),
        noIndex: other.#noIndex[i] === 1,
        files: [other.#files[i * 2]!, other.#files[i * 2 + 1]!],
        linkDigest: other.#digests[i]!,
        canonical: other.#canonical.get(i),
      },
      counts,
    )
    this.#refs.set(other.#refs.subarray(start, start + counts[0] * 2 + counts[1] + counts[2] + counts[3]), at)
  }

  /**
   * Appends a row with room for `counts` alternates (pairs), nav links, content links and files; returns
   * where the caller writes their ids, in that order.
   */
  #append(
    row: Omit<PageRow, 'alternates' | 'nav' | 'content' | 'fileRefs'>,
    counts: readonly [number, number, number, number],
  ): number {
    if (this.#rowOfPath.has(row.path)) throw new Error(`page ${this.pool.at(row.path)} is in the table twice`)
    const i = this.#size
    this.#size += 1
    this.#path = grown(this.#path, i + 1)
    this.#locale = grown(this.#locale, i + 1)
    this.#uid = grown(this.#uid, i + 1)
    this.#noIndex = grown(this.#noIndex, i + 1)
    this.#refStart = grown(this.#refStart, i + 1)
    this.#counts = grown(this.#counts, (i + 1) * 4)
    this.#path[i] = row.path
    this.#locale[i] = row.locale
    this.#uid[i] = row.uid ?? Number.NaN
    this.#noIndex[i] = row.noIndex ? 1 : 0
    const at = this.#refLength
    this.#refLength += counts[0] * 2 + counts[1] + counts[2] + counts[3]
    this.#refs = grown(this.#refs, this.#refLength)
    this.#refStart[i] = at
    this.#counts.set(counts, i * 4)
    this.#files.push(row.files[0], row.files[1])
    this.#digests.push(row.linkDigest)
    if (row.canonical !== undefined) this.#canonical.set(i, row.canonical)
    this.#rowOfPath.set(row.path, i)
    return at
  }

  #row(path: string): number | undefined {
    const id = this.pool.find(path)
    return id === undefined ? undefined : this.#rowOfPath.get(id)
  }

  /** The page at `path`, as a record made for the caller. */
  get(path: string): StoredPageRecord | undefined {
    const row = this.#row(path)
    return row === undefined ? undefined : this.#record(row)
  }

  /** The locale of the page at `path`, without making its record. */
  localeOf(path: string): string | undefined {
    const row = this.#row(path)
    return row === undefined ? undefined : this.pool.at(this.#locale[row]!)
  }

  /**
   * The pool ids of the paths the page at `path` links to (its navigation's, then its content's), as views
   * of the table (valid while it is not added to: a previous build's table, which a build only reads).
   */
  linkIdsOf(path: string): { nav: Int32Array; content: Int32Array } | undefined {
    const row = this.#row(path)
    if (row === undefined) return undefined
    const start = this.#refStart[row]! + this.#counts[row * 4]! * 2
    const nav = start + this.#counts[row * 4 + 1]!
    return { nav: this.#refs.subarray(start, nav), content: this.#refs.subarray(nav, nav + this.#counts[row * 4 + 2]!) }
  }

  /** The CMS files the page at `path` names (see shared/file-refs.ts), without making its record. */
  fileRefsOf(path: string): string[] {
    const row = this.#row(path)
    if (row === undefined) return []
    const start = this.#fileRefStart(row)
    return Array.from(this.#refs.subarray(start, start + this.#counts[row * 4 + 3]!), (id) => this.pool.at(id))
  }

  /**
   * The CMS files the pages name (see shared/file-refs.ts): one walk of the rows. Undefined when a page names as
   * many as its row keeps (MAX_FILE_REFS_PER_PAGE): it may name more.
   */
  fileRefs(): Set<string> | undefined {
    const ids = new Set<number>()
    const counts = this.#counts
    for (let row = 0; row < this.#size; row++) {
      const count = counts[row * 4 + 3]!
      if (count >= MAX_FILE_REFS_PER_PAGE) return undefined
      const start = this.#fileRefStart(row)
      for (let at = start; at < start + count; at++) ids.add(this.#refs[at]!)
    }
    return new Set([...ids].map((id) => this.pool.at(id)))
  }

  /** Whether the page at `path` names a CMS file among `ids` (pool ids of file references). */
  namesAnyFile(path: string, ids: ReadonlySet<number>): boolean {
    const row = this.#row(path)
    if (row === undefined) return false
    const start = this.#fileRefStart(row)
    const end = start + this.#counts[row * 4 + 3]!
    for (let at = start; at < end; at++) if (ids.has(this.#refs[at]!)) return true
    return false
  }

  #fileRefStart(row: number): number {
    const counts = this.#counts
    return this.#refStart[row]! + counts[row * 4]! * 2 + counts[row * 4 + 1]! + counts[row * 4 + 2]!
  }

  /** The link digest of the page at `path` (api/link-digest.ts); undefined when not known. */
  linkDigestOf(path: string): string | undefined {
    const row = this.#row(path)
    return (row === undefined ? undefined : this.#digests[row]) || undefined
  }

  /** The uid of the page at `path`, without making its record. */
  uidOf(path: string): number | undefined {
    const row = this.#row(path)
    return row === undefined ? undefined : this.#uidAt(row)
  }

  /** The paths of the pages with one of `uids` (a page in each of its locales), in the order added; a scan, no index. */
  pathsOfUids(uids: ReadonlySet<number>): string[] {
    const paths: string[] = []
    if (uids.size === 0) return paths
    for (let i = 0; i < this.#size; i++) if (uids.has(this.#uid[i]!)) paths.push(this.pool.at(this.#path[i]!))
    return paths
  }

  /** The content hash of the page's `index.html` (0) or `_payload.json` (1); undefined when not known. */
  fileHash(path: string, which: 0 | 1): string | undefined {
    const row = this.#row(path)
    return (row === undefined ? undefined : this.#files[row * 2 + which]) || undefined
  }

  /** Sets the content hashes of the page's files (the build knows them once they are written). */
  setFiles(path: string, files: readonly [string, string]): void {
    const row = this.#row(path)
    if (row === undefined) throw new Error(`no page ${path} in the table`)
    this.#files[row * 2] = files[0]
    this.#files[row * 2 + 1] = files[1]
  }

  /** Every page's path, in the order added. */
  *paths(): IterableIterator<string> {
    for (let i = 0; i < this.#size; i++) yield this.pool.at(this.#path[i]!)
  }

  /** Every page, in the order added; each record is made as it is reached. */
  *values(): IterableIterator<StoredPageRecord> {
    for (let i = 0; i < this.#size; i++) yield this.#record(i)
  }

  /** Every page's path, locale and uid (what slug history compares), in the order added. */
  *identities(): IterableIterator<PageIdentity> {
    for (let i = 0; i < this.#size; i++) {
      const uid = this.#uidAt(i)
      yield {
        path: this.pool.at(this.#path[i]!),
        locale: this.pool.at(this.#locale[i]!),
        ...(uid === undefined ? {} : { uid }),
      }
    }
  }

  /** Every page's sitemap facts (no links, no hashes), in the order added. */
  *facts(): IterableIterator<PageFact> {
    for (let i = 0; i < this.#size; i++) {
      const canonical = this.#canonical.get(i)
      yield {
        path: this.pool.at(this.#path[i]!),
        locale: this.pool.at(this.#locale[i]!),
        noIndex: this.#noIndex[i] === 1,
        alternates: this.#alternates(this.#alternateIds(i)),
        ...(canonical === undefined ? {} : { canonical }),
      }
    }
  }

  [Symbol.iterator](): IterableIterator<StoredPageRecord> {
    return this.values()
  }

  /**
   * Whether `other` (a table over the same pool) holds the same pages with the same sitemap facts:
   * locale, noIndex, alternates and canonical. Their sitemaps are then the same. With `only` (paths), only
   * those pages are compared: the others are known to be `other`'s rows (pages kept whole, keep-whole.ts).
   */
  sameFacts(other: PageTable, only?: Iterable<string>): boolean {
    if (other.pool !== this.pool || other.#size !== this.#size) return false
    const same = (i: number | undefined): boolean => {
      const j = i === undefined ? undefined : other.#rowOfPath.get(this.#path[i]!)
      return i !== undefined && j !== undefined && this.#sameAt(i, other, j, 1)
    }
    if (only) return [...only].every((path) => same(this.#row(path)))
    for (let i = 0; i < this.#size; i++) if (!same(i)) return false
    return true
  }

  /**
   * Whether `other` (a table over the same pool) has the page whose path is pool id `pathId` with the very same
   * row: facts, links, files and digest (a page the store would write the same line for, over the same paths).
   */
  sameRow(pathId: number, other: PageTable): boolean {
    const i = this.#rowOfPath.get(pathId)
    const j = other.#rowOfPath.get(pathId)
    if (i === undefined || j === undefined || other.pool !== this.pool) return false
    if (!Object.is(this.#uid[i], other.#uid[j]) || this.#digests[i] !== other.#digests[j]) return false
    if (this.#files[i * 2] !== other.#files[j * 2] || this.#files[i * 2 + 1] !== other.#files[j * 2 + 1]) return false
    return this.#sameAt(i, other, j, 4)
  }

  /**
   * Whether `other` (a table over the same pool) has the page whose path is pool id `pathId` naming the very same
   * paths, hreflangs and files (alternates, links, file refs), with the same locale, noIndex and canonical.
   */
  sameReferences(pathId: number, other: PageTable): boolean {
    const i = this.#rowOfPath.get(pathId)
    const j = other.#rowOfPath.get(pathId)
    if (i === undefined || j === undefined || other.pool !== this.pool) return false
    return this.#sameAt(i, other, j, 4)
  }

  /**
   * Whether `other` (a table over the same pool) has the page at `path` as the same page of the same locale
   * (uid) linking to the same paths (nav and content links, in order): what the crawl and slug history see
   * of it. Its text, files and sitemap facts may differ.
   */
  sameLinks(path: string, other: PageTable): boolean {
    const i = this.#row(path)
    const j = other.#row(path)
    if (i === undefined || j === undefined || other.pool !== this.pool) return false
    if (!Object.is(this.#uid[i], other.#uid[j]) || this.#locale[i] !== other.#locale[j]) return false
    const links = (table: PageTable, row: number) => {
      const start = table.#refStart[row]! + table.#counts[row * 4]! * 2
      return table.#refs.subarray(start, start + table.#counts[row * 4 + 1]! + table.#counts[row * 4 + 2]!)
    }
    if (this.#counts[i * 4 + 1] !== other.#counts[j * 4 + 1]) return false
    const mine = links(this, i)
    const theirs = links(other, j)
    return mine.length === theirs.length && mine.every((id, k) => id === theirs[k])
  }

  /**
   * Whether row `i` and `other`'s row `j` have the same locale, noIndex and canonical, and the same first `lists`
   * lists of references: 1, their alternates (the sitemap facts); 4, alternates, nav and content links and files.
   */
  #sameAt(i: number, other: PageTable, j: number, lists: 1 | 4): boolean {
    if (other.#locale[j] !== this.#locale[i] || other.#noIndex[j] !== this.#noIndex[i]) return false
    if (other.#canonical.get(j) !== this.#canonical.get(i)) return false
    let length = 0
    for (let k = 0; k < lists; k++) {
      const count = this.#counts[i * 4 + k]!
      if (count !== other.#counts[j * 4 + k]) return false
      length += k === 0 ? count * 2 : count
    }
    const mine = this.#refStart[i]!
    const theirs = other.#refStart[j]!
    for (let k = 0; k < length; k++) if (other.#refs[theirs + k] !== this.#refs[mine + k]) return false
    return true
  }

  /** The pages that link (nav or content) to any of `ids` (pool ids), in the order added: one walk of the rows, no path looked up. */
  pathsLinkingTo(ids: ReadonlySet<number>): string[] {
    const found: string[] = []
    const counts = this.#counts
    const refs = this.#refs
    // every link of every page is looked at (1.5 million on a 30,000-page site): an array index, not a set lookup
    const wanted = new Uint8Array(this.pool.size)
    for (const id of ids) wanted[id] = 1
    for (let row = 0; row < this.#size; row++) {
      const start = this.#refStart[row]! + counts[row * 4]! * 2
      const end = start + counts[row * 4 + 1]! + counts[row * 4 + 2]!
      for (let at = start; at < end; at++)
        if (wanted[refs[at]!] === 1) {
          found.push(this.pool.at(this.#path[row]!))
          break
        }
    }
    return found
  }

  /** Calls `visit` with the pool id of each path the page at `path` names: its alternates', then its links', in order. */
  forEachPathId(path: string, visit: (id: number) => void): void {
    const row = this.#row(path)
    if (row === undefined) return
    const refs = this.#refs
    let at = this.#refStart[row]!
    for (let n = this.#counts[row * 4]!; n > 0; n--, at += 2) visit(refs[at + 1]!)
    const end = at + this.#counts[row * 4 + 1]! + this.#counts[row * 4 + 2]!
    for (; at < end; at++) visit(refs[at]!)
  }

  /** The page at `path` as pool ids (the store writes them so). */
  rowOf(path: string): PageRow | undefined {
    const i = this.#row(path)
    return i === undefined ? undefined : this.#rowAt(i)
  }

  /** Row `i`'s alternates as [hreflang id, path id] pairs. */
  #alternateIds(i: number): Array<[number, number]> {
    const pairs: Array<[number, number]> = []
    let at = this.#refStart[i]!
    for (let n = this.#counts[i * 4]!; n > 0; n--, at += 2) pairs.push([this.#refs[at]!, this.#refs[at + 1]!])
    return pairs
  }

  #alternates(pairs: ReadonlyArray<readonly [number, number]>): PageFact['alternates'] {
    return pairs.map(([hreflang, path]) => ({ hreflang: this.pool.at(hreflang), path: this.pool.at(path) }))
  }

  #rowAt(i: number): PageRow {
    const refs = this.#refs
    const alternates = this.#alternateIds(i)
    let at = this.#refStart[i]! + alternates.length * 2
    const nav = Array.from(refs.subarray(at, at + this.#counts[i * 4 + 1]!))
    at += nav.length
    const content = Array.from(refs.subarray(at, at + this.#counts[i * 4 + 2]!))
    at += content.length
    const fileRefs = Array.from(refs.subarray(at, at + this.#counts[i * 4 + 3]!))
    return {
      path: this.#path[i]!,
      locale: this.#locale[i]!,
      uid: this.#uidAt(i),
      noIndex: this.#noIndex[i] === 1,
      alternates,
      nav,
      content,
      fileRefs,
      linkDigest: this.#digests[i]!,
      files: [this.#files[i * 2]!, this.#files[i * 2 + 1]!],
      canonical: this.#canonical.get(i),
    }
  }

  #uidAt(i: number): number | undefined {
    const uid = this.#uid[i]!
    return Number.isNaN(uid) ? undefined : uid
  }

  #record(i: number): StoredPageRecord {
    const row = this.#rowAt(i)
    const { pool } = this
    return {
      path: pool.at(row.path),
      locale: pool.at(row.locale),
      ...(row.uid === undefined ? {} : { uid: row.uid }),
      noIndex: row.noIndex,
      alternates: this.#alternates(row.alternates),
      ...(row.canonical === undefined ? {} : { canonical: row.canonical }),
      links: { nav: row.nav.map((id) => pool.at(id)), content: row.content.map((id) => pool.at(id)) },
      ...(row.fileRefs.length ? { fileRefs: row.fileRefs.map((id) => pool.at(id)) } : {}),
      ...(row.linkDigest ? { linkDigest: row.linkDigest } : {}),
      files: [row.files[0], row.files[1]],
    }
  }
}
