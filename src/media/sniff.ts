/**
 * What an image's bytes are, from their first bytes (the signatures of each format), before any decoder sees
 * them: a body that is not the raster image its name and `Content-Type` claim is refused, and no SVG, HTML or
 * other format libvips could read ever reaches it.
 */
import { ownValue } from '../shared/values.js'

export type RasterFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif'

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0): boolean =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte)
const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0))

/** Bytes of an `ftyp` box searched for a brand: a real one lists a handful, a hostile one could claim megabytes. */
const FTYP_MAX_BYTES = 256

/**
 * True when the file's `ftyp` box names AVIF (`avif`, or `avis` for a sequence) as its major brand or as one of its
 * compatible brands: the AVIF specification asks for the compatible brand only, and some encoders write `mif1` first.
 */
function isAvif(bytes: Uint8Array): boolean {
  if (!startsWith(bytes, ascii('ftyp'), 4)) return false
  const avifAt = (at: number) => startsWith(bytes, ascii('avif'), at) || startsWith(bytes, ascii('avis'), at)
  if (avifAt(8)) return true
  // compatible brands, 4 bytes each, from after the minor version (at 12) to the box's end
  const boxEnd = Math.min(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0), FTYP_MAX_BYTES)
  for (let at = 16; at + 4 <= boxEnd; at += 4) if (avifAt(at)) return true
  return false
}

/** The raster format of the bytes, or undefined for anything else. */
export function sniffRaster(bytes: Uint8Array): RasterFormat | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg'
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png'
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp'
  if (isAvif(bytes)) return 'avif'
  return undefined
}

/**
 * True for an animated PNG (APNG): its `acTL` chunk comes before its first `IDAT`. libvips reads only the first
 * frame of one and tells no frame count, so the build looks for the chunk itself.
 */
export function isAnimatedPng(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // chunks after the 8-byte signature: length (4 bytes), type (4), data, CRC (4)
  for (let at = 8; at + 8 <= bytes.length; at += 12 + view.getUint32(at)) {
    if (startsWith(bytes, ascii('acTL'), at + 4)) return true
    if (startsWith(bytes, ascii('IDAT'), at + 4)) return false
  }
  return false
}

const EXTENSION_FORMAT: Readonly<Record<string, RasterFormat>> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
  avif: 'avif',
}

/** The format a raster file claims by its extension (`photo.JPG` -> jpeg). */
export const claimedFormat = (extension: string): RasterFormat | undefined => ownValue(EXTENSION_FORMAT, extension)

/** True when a `Content-Type` agrees with a format (or names no image type: many CMS send `application/octet-stream`). */
export function contentTypeAgrees(contentType: string | undefined, format: RasterFormat): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  if (!type.startsWith('image/')) return true
  return type === `image/${format}` || (format === 'jpeg' && type === 'image/jpg')
}
