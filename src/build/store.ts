/**
 * The build store: what a build leaves in OUT for the next one (`_site/builds/state.json`),
 * so that OUT itself is the state between builds, wherever CI keeps it (a cache, the previous
 * deploy). Versioned (STORE_FORMAT), written last by a build and read first by the next.
 *
 * A host serves it like any file, so it holds only public facts, what the pages show anyway:
 * each page's path, locale, uid, sitemap facts and links; the redirects; the content hash of
 * every file; the content-hashed files of the last builds. The page data itself is each page's
 * `_payload.json`. The config (API URL and headers included) is recorded as a one-way digest only.
 * Pure: parse and render, no I/O (loading it from OUT is previous.ts).
 */
import { createHash } from 'node:crypto'
import type { ResolvedSite } from '../config/types.js'
import { isRecord } from '../shared/values.js'
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

export interface BuildStore {
  format: typeof STORE_FORMAT
  /** The engine that wrote it (site's version and a digest of its code): page data is reused only by the same. */
  engine: string
  /** A digest of the options that shape the output (see configDigest). */
  config: string
  id: string
  clientVersion: string
  /** Per locale: its content-hashed initial data file. */
  locales: Record<string, { initialDataUrl: string }>
  /** Every page, sorted by path. */
  pages: PageRecord[]
  /** API redirects and slug history, sorted by `from`. */
  redirects: StoredRedirect[]
  /** Crawled paths the API answered with 404 (broken links), sorted. */
  notFound: Array<{ path: string; status: number }>
  /** The content-hashed files of the last builds that changed them, newest first. */
  builds: StoredBuild[]
  /** Every file of the output but the store itself: path -> content hash (see hashContents). */
  files: Record<string, string>
}

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

/** The engine's identity in the store: its version plus a digest of its own code (see engineDigest in previous.ts). */
export const engineId = (version: string, codeDigest: string): string => `${version}+${codeDigest}`

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** The store as JSON text, everything sorted: two builds of the same content write the same bytes. */
export function renderStore(store: BuildStore): string {
  const sorted: BuildStore = {
    ...store,
    pages: [...store.pages].sort((a, b) => compare(a.path, b.path)),
    redirects: [...store.redirects].sort((a, b) => compare(a.from, b.from)),
    notFound: [...store.notFound].sort((a, b) => compare(a.path, b.path)),
    files: Object.fromEntries(Object.entries(store.files).sort(([a], [b]) => compare(a, b))),
  }
  return `${JSON.stringify(sorted)}\n`
}

const isString = (v: unknown): v is string => typeof v === 'string'
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString)

function isPageRecord(v: unknown): v is PageRecord {
  if (!isRecord(v) || !isString(v.path) || !isString(v.locale) || typeof v.noIndex !== 'boolean') return false
  if (v.uid !== undefined && typeof v.uid !== 'number') return false
  const links = v.links
  if (!isRecord(links) || !isStringList(links.nav) || !isStringList(links.content)) return false
  return (
    Array.isArray(v.alternates) && v.alternates.every((a) => isRecord(a) && isString(a.hreflang) && isString(a.path))
  )
}

const isRedirect = (v: unknown): v is StoredRedirect =>
  isRecord(v) &&
  isString(v.from) &&
  isString(v.to) &&
  typeof v.statusCode === 'number' &&
  isString(v.locale) &&
  (v.kind === 'api' || v.kind === 'slug') &&
  (v.uid === undefined || typeof v.uid === 'number')

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
  const ok =
    isString(value.engine) &&
    isString(value.config) &&
    isString(value.id) &&
    isString(value.clientVersion) &&
    isRecord(value.locales) &&
    Object.values(value.locales).every((l) => isRecord(l) && isString(l.initialDataUrl)) &&
    Array.isArray(value.pages) &&
    value.pages.every(isPageRecord) &&
    Array.isArray(value.redirects) &&
    value.redirects.every(isRedirect) &&
    Array.isArray(value.notFound) &&
    value.notFound.every((n) => isRecord(n) && isString(n.path) && typeof n.status === 'number') &&
    Array.isArray(value.builds) &&
    value.builds.every((b) => isRecord(b) && isString(b.id) && isString(b.clientVersion) && isStringList(b.files)) &&
    isRecord(value.files) &&
    Object.values(value.files).every(isString)
  return ok
    ? { store: value as unknown as BuildStore }
    : { reason: 'its build state is damaged (a field is missing or of the wrong type)' }
}
