/**
 * The file URLs a page's API answer names, read from its bytes without parsing the page: every string value of a
 * `"publicUrl"` key (EXT:headless file references: content elements' images, galleries, media and uploads,
 * og:image, twitter:image), and the `content` of the `og:image` and `twitter:image` tags of `seo.meta`.
 * Cheap enough for every page of a large site; the render worker finds where each one is (apply.ts).
 */
import { MAX_DATA_DEPTH } from '../shared/constants.js'
import { toFileRef } from '../shared/file-refs.js'
import { withinDepth } from '../shared/values.js'

/** A file a page names, and whether the page shows it (an og:image or twitter:image only is never shown: no variants). */
export interface FileUse {
  url: string
  shown: boolean
}

/** Bytes before a `"publicUrl"` searched for the key of a share image (`"ogImage": {`, pretty-printed or not). */
const SHARE_KEY_WINDOW_BYTES = 48
const SHARE_KEY_RE = /"(?:ogImage|twitterImage)"\s*:\s*\{\s*$/

const KEY = Buffer.from('"publicUrl"')
const QUOTE = 0x22
const BACKSLASH = 0x5c
/** Longest URL read: a longer one is no file URL of a CMS (and stays a link). */
const MAX_FILE_URL_LENGTH = 2048

const isSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09

/** The share image tags of `seo.meta` whose `content` is a file URL: `{ "property": "og:image", "content": "…" }`. */
const SHARE_TAGS = [Buffer.from('"og:image"'), Buffer.from('"twitter:image"')]
const CONTENT_KEY = Buffer.from('"content"')
/** Bytes after a share tag's name searched for its `"content"` key. */
const CONTENT_KEY_WINDOW_BYTES = 32

/** The string value of the key whose closing quote is at `keyEnd - 1`, or undefined. */
function stringAfter(bytes: Buffer, keyEnd: number): { value: string | undefined; end: number } {
  let i = keyEnd
  while (isSpace(bytes[i])) i++
  if (bytes[i] !== 0x3a) return { value: undefined, end: i }
  i++
  while (isSpace(bytes[i])) i++
  if (bytes[i] !== QUOTE) return { value: undefined, end: i }
  const start = i
  i++
  while (i < bytes.length && bytes[i] !== QUOTE && i - start <= MAX_FILE_URL_LENGTH) i += bytes[i] === BACKSLASH ? 2 : 1
  if (bytes[i] !== QUOTE) return { value: undefined, end: i }
  return { value: readString(bytes.toString('utf8', start, i + 1)), end: i }
}

/**
 * Example: `{"publicUrl":"https:\/\/cms\/a.jpg"}` -> `[{ url: 'https://cms/a.jpg', shown: true }]`. Each URL
 * once, in order; shown when any of its uses is not a share image.
 */
export function findFileUrls(body: Uint8Array): FileUse[] {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  const found = new Map<string, boolean>()
  let at = bytes.indexOf(KEY)
  while (at !== -1) {
    const { value: url, end } = stringAfter(bytes, at + KEY.length)
    if (url && found.get(url) !== true) {
      const before = bytes.toString('latin1', Math.max(0, at - SHARE_KEY_WINDOW_BYTES), at)
      found.set(url, !SHARE_KEY_RE.test(before))
    }
    at = bytes.indexOf(KEY, end)
  }
  for (const tag of SHARE_TAGS) {
    let from = bytes.indexOf(tag)
    while (from !== -1) {
      const window = bytes.subarray(from + tag.length, from + tag.length + CONTENT_KEY_WINDOW_BYTES)
      const key = window.indexOf(CONTENT_KEY)
      const { value: url } =
        key === -1 ? { value: undefined } : stringAfter(bytes, from + tag.length + key + CONTENT_KEY.length)
      if (url && !found.has(url)) found.set(url, false)
      from = bytes.indexOf(tag, from + tag.length)
    }
  }
  return [...found].map(([url, shown]) => ({ url, shown }))
}

/** Data already parsed (a locale's initial data, a 404 page's body) as JSON bytes, up to the depth a page shows. */
export const jsonBytesOf = (value: unknown): Buffer =>
  Buffer.from(JSON.stringify(withinDepth(value, MAX_DATA_DEPTH)) ?? '')

/** findFileUrls of data already parsed: small, so written out again. */
export const findFileUrlsIn = (value: unknown): FileUse[] => findFileUrls(jsonBytesOf(value))

const ORIGINAL_KEY = Buffer.from('"originalUrl"')

/**
 * The files a page's answer names, as the build state keeps them (see shared/file-refs.ts): each file of
 * findFileUrls, and each file's original (`properties.originalUrl`: a processed image's source, which is what
 * TYPO3's file messages name). Sorted, each once.
 * Example: a gallery image `{"publicUrl":"https://cms/fileadmin/_processed_/a/csm_x_1.jpg", "properties":
 * {"originalUrl":"/fileadmin/x.jpg"}}` -> ['/fileadmin/_processed_/a/csm_x_1.jpg', '/fileadmin/x.jpg'].
 */
export function findFileRefs(body: Uint8Array, uses: readonly FileUse[], apiOrigin: string): string[] {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
  const urls = uses.map((use) => use.url)
  let at = bytes.indexOf(ORIGINAL_KEY)
  while (at !== -1) {
    const { value, end } = stringAfter(bytes, at + ORIGINAL_KEY.length)
    if (value) urls.push(value)
    at = bytes.indexOf(ORIGINAL_KEY, end)
  }
  const refs = new Set<string>()
  for (const url of urls) {
    const ref = toFileRef(url, apiOrigin)
    if (ref !== undefined) refs.add(ref)
  }
  return [...refs].sort()
}

function readString(literal: string): string | undefined {
  try {
    const value: unknown = JSON.parse(literal)
    return typeof value === 'string' && value !== '' ? value : undefined
  } catch {
    return undefined
  }
}
