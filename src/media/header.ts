/**
 * The size an image's header declares, read in the build's own thread (image-size): for a share image
 * (og:image, twitter:image), which the build copies and never decodes or shows, only to hold it to the pixel
 * limit. The image process is not started for that: on two busy cores it takes 0.1-0.2 s to start, which every
 * page naming the file would wait for. An image a page shows is read by libvips in the image process, whose size
 * as displayed sets the page's layout and its variants; so is a share image whose size this cannot read.
 */
import { GIF } from 'image-size/types/gif'
import { HEIF } from 'image-size/types/heif'
import type { IImage, ISize } from 'image-size/types/interface'
import { JPG } from 'image-size/types/jpg'
import { PNG } from 'image-size/types/png'
import { WEBP } from 'image-size/types/webp'
import type { ImageSize } from './encode.js'
import type { RasterFormat } from './sniff.js'

const READERS: Readonly<Record<RasterFormat, IImage>> = { jpeg: JPG, png: PNG, gif: GIF, webp: WEBP, avif: HEIF }

/**
 * How far into a file its size is looked for. A JPEG's size follows its metadata segments (EXIF, ICC, XMP: tens of
 * KB in a camera's file), and image-size steps through a damaged one byte by byte at about 90 ms a MB: a hostile
 * file of `media.maxBytes` would hold the build's thread for seconds. Past this, libvips reads it.
 */
export const HEADER_BYTES = 256 * 1024

const isSize = (value: number): boolean => Number.isInteger(value) && value > 0

/**
 * Width and height as the header of `bytes` (already sniffed as `format`) declares them within its first
 * HEADER_BYTES, turned by a JPEG's EXIF orientation as libvips would; undefined when it holds none there.
 */
export function declaredSize(bytes: Uint8Array, format: RasterFormat): ImageSize | undefined {
  const reader = READERS[format]
  // a copy of its own: image-size reads through a DataView on the whole ArrayBuffer, so a view into a larger one
  // (a pooled Buffer, or the rest of the file) would let a header cut short be read on from what lies after it
  const head = new Uint8Array(bytes.subarray(0, HEADER_BYTES))
  let read: ISize | undefined
  try {
    read = reader.validate(head) ? reader.calculate(head) : undefined
  } catch {
    return undefined
  }
  if (!read || !isSize(read.width) || !isSize(read.height)) return undefined
  const { width, height, orientation } = read
  return (orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height }
}
