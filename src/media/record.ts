/**
 * The media record (`_site/builds/media.json`): each file a build took, with what the next build needs to ask
 * the CMS whether it changed (ETag, Last-Modified) and to keep its copy and variants without encoding again.
 * Read back from the previous output as untrusted: a regular file (no link followed), bounded, every field
 * checked; whatever is wrong only means the file is fetched again.
 */
import { resolve } from 'node:path'
import { readRegularFile } from '../project/untrusted-file.js'
import { MEDIA_RECORD_MAX_BYTES } from '../shared/constants.js'
import { MEDIA_RECORD_FILE } from '../shared/layout.js'
import { isRecord } from '../shared/values.js'
import { originalPath, variantBase, variantPath } from './names.js'
import type { FileClass } from './policy.js'
import type { OutputFormat, VariantPlan } from './variants.js'

export interface MediaEntry {
  url: string
  etag?: string
  lastModified?: string
  /** Content hash of the original (names its folder). */
  hash: string
  /** Its file name in the output. */
  name: string
  size: number
  kind: FileClass
  width?: number
  height?: number
  /**
   * `header`: the size was read from the file's header in the build's thread (a share image, header.ts), not by
   * libvips as displayed; such a size lays out no image.
   */
  sizeFrom?: 'header'
  /** Several frames: copied, never resized (variants would show the first frame only), as a GIF is. */
  animated?: true
  variants?: VariantPlan
}

/**
 * 2: entries say `animated` and `sizeFrom`. Those of version 1 lack them whatever their file: the stills an older
 * engine made of an animated image would be kept, and so would a share image's header size that such an engine
 * read from a newer record and wrote back without its mark.
 */
const RECORD_VERSION = 2

/** Every path of the output an entry owns: the original and its variants. */
export function entryPaths(entry: MediaEntry): string[] {
  const paths = [originalPath(entry.hash, entry.name)]
  const { variants } = entry
  if (!variants) return paths
  const base = variantBase(entry.hash, entry.name, variants.digest)
  for (const width of variants.widths)
    for (const format of variants.formats) paths.push(variantPath(base, width, format))
  return paths
}

/** An entry with its keys in one order, whether it was made by this build or read back from the last. */
const canonical = (entry: MediaEntry): MediaEntry => {
  const { url, etag, lastModified, hash, name, size, kind, width, height, sizeFrom, animated, variants } = entry
  return {
    url,
    ...(etag === undefined ? {} : { etag }),
    ...(lastModified === undefined ? {} : { lastModified }),
    hash,
    name,
    size,
    kind,
    ...(width === undefined ? {} : { width }),
    ...(height === undefined ? {} : { height }),
    ...(sizeFrom === undefined ? {} : { sizeFrom }),
    ...(animated === undefined ? {} : { animated }),
    ...(variants === undefined
      ? {}
      : { variants: { digest: variants.digest, widths: variants.widths, formats: variants.formats } }),
  }
}

/**
 * A URL as the record keeps it: a file on the API's own origin by its path only, since the record is published
 * with the site and the CMS's address is not (it may not be public). Example: ('https://cms.example/f/a.jpg',
 * 'https://cms.example') -> '/f/a.jpg'; a file of another host keeps its whole URL.
 */
const toStoredUrl = (url: string, apiOrigin: string): string =>
  url.startsWith(`${apiOrigin}/`) ? url.slice(apiOrigin.length) : url

const fromStoredUrl = (stored: string, apiOrigin: string): string =>
  stored.startsWith('/') ? `${apiOrigin}${stored}` : stored

/** The record's text: entries sorted by URL, keys in one order: an unchanged set of files writes the same bytes. */
export function serializeRecord(entries: Iterable<MediaEntry>, apiOrigin: string): string {
  const list = [...entries]
    .map((entry) => canonical({ ...entry, url: toStoredUrl(entry.url, apiOrigin) }))
    .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))
  return `${JSON.stringify({ version: RECORD_VERSION, entries: list })}\n`
}

const FORMATS: ReadonlySet<string> = new Set(['avif', 'webp', 'jpeg', 'png'])
const short = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max
const optionalText = (v: unknown): boolean => v === undefined || (short(v, 256) && /^[\x20-\x7e]+$/.test(v))
const dimension = (v: unknown): boolean => v === undefined || (Number.isInteger(v) && (v as number) > 0)

function checkVariants(v: unknown): v is VariantPlan {
  return (
    isRecord(v) &&
    short(v.digest, 16) &&
    /^[0-9a-f]+$/.test(v.digest) &&
    Array.isArray(v.widths) &&
    v.widths.length > 0 &&
    v.widths.length <= 32 &&
    v.widths.every((w) => Number.isInteger(w) && w > 0) &&
    Array.isArray(v.formats) &&
    v.formats.length > 0 &&
    v.formats.every((f) => typeof f === 'string' && FORMATS.has(f))
  )
}

/** An entry with every field of the right shape, or undefined. */
export function checkEntry(v: unknown): MediaEntry | undefined {
  if (!isRecord(v)) return undefined
  const ok =
    short(v.url, 2048) &&
    // a path is the API's own origin's (fromStoredUrl), whatever it starts with: `//fileadmin/…` too
    /^(?:https?:\/\/|\/)[^\s]*$/i.test(v.url) &&
    short(v.hash, 64) &&
    /^[0-9a-f]+$/.test(v.hash) &&
    short(v.name, 100) &&
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(v.name) &&
    Number.isSafeInteger(v.size) &&
    (v.size as number) >= 0 &&
    (v.kind === 'image' || v.kind === 'file') &&
    optionalText(v.etag) &&
    optionalText(v.lastModified) &&
    dimension(v.width) &&
    dimension(v.height) &&
    (v.sizeFrom === undefined || v.sizeFrom === 'header') &&
    (v.animated === undefined || v.animated === true) &&
    (v.variants === undefined || checkVariants(v.variants))
  if (!ok) return undefined
  const entry: MediaEntry = {
    url: v.url as string,
    hash: v.hash as string,
    name: v.name as string,
    size: v.size as number,
    kind: v.kind as FileClass,
  }
  if (v.etag !== undefined) entry.etag = v.etag as string
  if (v.lastModified !== undefined) entry.lastModified = v.lastModified as string
  if (v.width !== undefined) entry.width = v.width as number
  if (v.height !== undefined) entry.height = v.height as number
  if (v.sizeFrom !== undefined) entry.sizeFrom = 'header'
  if (v.animated === true) entry.animated = true
  if (v.variants !== undefined) {
    const plan = v.variants as VariantPlan
    entry.variants = { digest: plan.digest, widths: [...plan.widths], formats: [...plan.formats] as OutputFormat[] }
  }
  return entry
}

/**
 * The previous build's record from its output folder: URL -> entry. Empty when there is none, when it is no
 * regular file, larger than MEDIA_RECORD_MAX_BYTES or not a record; entries that are not well formed are left out.
 */
export async function readMediaRecord(outDir: string, apiOrigin: string): Promise<Map<string, MediaEntry>> {
  const entries = new Map<string, MediaEntry>()
  // the output's one untrusted-file reader: a regular file, no link followed, no FIFO waited on, bounded
  const read = await readRegularFile(resolve(outDir, MEDIA_RECORD_FILE), MEDIA_RECORD_MAX_BYTES)
  if (read.type === 'refused') return entries
  try {
    const text = read.bytes.toString('utf8')
    const body: unknown = JSON.parse(text)
    if (!isRecord(body) || body.version !== RECORD_VERSION || !Array.isArray(body.entries)) return entries
    for (const item of body.entries) {
      const entry = checkEntry(item)
      if (!entry) continue
      entry.url = fromStoredUrl(entry.url, apiOrigin)
      if (!entries.has(entry.url)) entries.set(entry.url, entry)
    }
  } catch {
    entries.clear()
  }
  return entries
}
