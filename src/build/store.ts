/**
 * The build store: what a build leaves in OUT for the next one (`_site/builds/state.json`),
 * so that OUT itself is the state between builds, wherever CI keeps it (a cache, the previous
 * deploy). Versioned (STORE_FORMAT), written last by a build and read first by the next.
 *
 * A host serves it like any file, so it holds only public facts, what the pages show anyway:
 * each page's path, locale, uid, sitemap facts and links; the redirects; the content hash of
 * every file; the content-hashed files of the last builds. The page data itself is each page's
 * `_payload.json`. The config (API URL and headers included) is recorded as a one-way digest only.
 *
 * Compact, as it grows with the site (30,000 pages): every path once in `paths`, pages as tuples
 * that point into it, written in parts (no one large string) and read back with each path string
 * shared by all the links to it. Pure: render and parse, no I/O (previous.ts reads it from OUT).
 */
import { createHash } from 'node:crypto'
import type { ResolvedSite } from '../config/types.js'
import { compareStrings, isRecord } from '../shared/values.js'
import type { PageRecord } from './types.js'

/** The store's format; a store of another format is not read (the build starts from scratch). */
export const STORE_FORMAT = 1

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

/** A page as the store holds it: the record plus the content hashes of its `index.html` and `_payload.json`. */
export type StoredPageRecord = PageRecord & { files: [html: string, payload: string] }

export interface BuildStore extends StoreHead {
  pages: StoredPageRecord[]
  /** Every other file of the output (not a page's, not the store itself): path -> content hash. */
  files: ReadonlyMap<string, string>
}

/**
 * A page in the file: [locale, uid or null, noIndex (0 or 1), alternates as [hreflang, path index],
 * nav links, content links (path indexes), hash of index.html, hash of _payload.json, canonical naming another
 * page or null]. Page `i` is at `paths[i]`.
 */
type PageTuple = [
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

/** Parts of about this many pages are yielded at once. */
const PAGES_PER_PART = 500

/**
 * The store as JSON text, in parts (for FileWriter.writeParts), everything sorted: two builds of
 * the same content write the same bytes.
 */
export function* renderStoreParts(store: BuildStore): Iterable<string> {
  const pages = [...store.pages].sort((a, b) => compareStrings(a.path, b.path))
  const index = new Map(pages.map((page, i) => [page.path, i]))
  const extra: string[] = []
  const indexOf = (path: string): number => {
    let i = index.get(path)
    if (i === undefined) {
      i = index.size
      index.set(path, i)
      extra.push(path)
    }
    return i
  }
  const toTuple = (page: StoredPageRecord): PageTuple => [
    page.locale,
    page.uid ?? null,
    page.noIndex ? 1 : 0,
    page.alternates.map((a): [string, number] => [a.hreflang, indexOf(a.path)]),
    page.links.nav.map(indexOf),
    page.links.content.map(indexOf),
    page.files[0],
    page.files[1],
    page.canonical ?? null,
  ]
  const { pages: _pages, files, ...head } = store
  const sortedHead: StoreHead = {
    ...head,
    redirects: [...head.redirects].sort((a, b) => compareStrings(a.from, b.from)),
    notFound: [...head.notFound].sort((a, b) => compareStrings(a.path, b.path)),
  }
  // pages first: the paths their links name beyond the pages are known once they are written
  yield `${JSON.stringify(sortedHead).slice(0, -1)},"pages":[`
  for (let i = 0; i < pages.length; i += PAGES_PER_PART)
    yield `${i ? ',' : ''}${pages
      .slice(i, i + PAGES_PER_PART)
      .map((p) => JSON.stringify(toTuple(p)))
      .join(',')}`
  yield '],"paths":['
  const paths = [...pages.map((p) => p.path), ...extra]
  for (let i = 0; i < paths.length; i += PAGES_PER_PART)
    yield `${i ? ',' : ''}${paths
      .slice(i, i + PAGES_PER_PART)
      .map((p) => JSON.stringify(p))
      .join(',')}`
  const sortedFiles = [...files].sort(([a], [b]) => compareStrings(a, b))
  yield `],"files":${JSON.stringify(Object.fromEntries(sortedFiles))}}\n`
}

/** The store as one string (small sites, tests). */
export const renderStore = (store: BuildStore): string => [...renderStoreParts(store)].join('')

const isString = (v: unknown): v is string => typeof v === 'string'
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString)

const isRedirect = (v: unknown): v is StoredRedirect =>
  isRecord(v) &&
  isString(v.from) &&
  isString(v.to) &&
  typeof v.statusCode === 'number' &&
  isString(v.locale) &&
  (v.kind === 'api' || v.kind === 'slug') &&
  (v.uid === undefined || typeof v.uid === 'number')

function isHead(v: Record<string, unknown>): boolean {
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
    isStringList(v.paths) &&
    Array.isArray(v.pages) &&
    v.pages.length <= v.paths.length
  )
}

/** The page at `paths[i]`, its links resolved to the shared path strings; undefined when the tuple is damaged. */
function toRecord(tuple: unknown, path: string, paths: readonly string[]): StoredPageRecord | undefined {
  if (!Array.isArray(tuple) || tuple.length !== 9) return undefined
  const [locale, uid, noIndex, alternates, nav, content, html, payload, canonical] = tuple as unknown[]
  const at = (i: unknown): string | undefined => (Number.isInteger(i) ? paths[i as number] : undefined)
  const resolve = (list: unknown): string[] | undefined => {
    if (!Array.isArray(list)) return undefined
    const out = list.map(at)
    return out.every(isString) ? (out as string[]) : undefined
  }
  const links = { nav: resolve(nav), content: resolve(content) }
  if (!isString(locale) || !(uid === null || typeof uid === 'number') || (noIndex !== 0 && noIndex !== 1))
    return undefined
  if (!links.nav || !links.content || !isString(html) || !isString(payload) || !Array.isArray(alternates))
    return undefined
  if (!(canonical === null || isString(canonical))) return undefined
  const resolved = alternates.map((a) =>
    Array.isArray(a) && isString(a[0]) && at(a[1]) !== undefined ? { hreflang: a[0], path: at(a[1])! } : undefined,
  )
  if (!resolved.every((a) => a !== undefined)) return undefined
  return {
    path,
    locale,
    ...(uid === null ? {} : { uid }),
    noIndex: noIndex === 1,
    alternates: resolved as PageRecord['alternates'],
    ...(canonical === null ? {} : { canonical }),
    links: { nav: links.nav, content: links.content },
    files: [html, payload],
  }
}

/**
 * Reads store JSON text: the store, or why it cannot be used. Every field is checked, so a damaged
 * or foreign file is refused as a whole, never half-used.
 */
export function parseStore(text: string): { store: BuildStore } | { reason: string } {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { reason: 'its build state is not valid JSON' }
  }
  if (!isRecord(value)) return { reason: 'its build state is not an object' }
  if (value.format !== STORE_FORMAT)
    return { reason: `its build state has format ${JSON.stringify(value.format)}, this site reads ${STORE_FORMAT}` }
  const damaged = { reason: 'its build state is damaged (a field is missing or of the wrong type)' }
  if (!isHead(value)) return damaged
  const paths = value.paths as string[]
  const pages: StoredPageRecord[] = []
  for (const [i, tuple] of (value.pages as unknown[]).entries()) {
    const page = toRecord(tuple, paths[i]!, paths)
    if (!page) return damaged
    pages.push(page)
  }
  const { paths: _paths, pages: _pages, files, ...head } = value
  return {
    store: {
      ...(head as unknown as StoreHead),
      pages,
      files: new Map(Object.entries(files as Record<string, string>)),
    },
  }
}
