/**
 * The size an image's header declares, read in the build's own thread (image-size): for a share image
 * (og:image, twitter:image), which the build copies and never decodes or shows, only to hold it to the pixel
 * limit. The image process is not started for that: on two busy cores it takes 0.1-0.2 s to start, which every
 * page naming the file would wait for. An image a page shows is read by libvips in the image process, whose size
 * as displayed sets the page's layout and its variants.
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

const isSize = (value: number): boolean => Number.isInteger(value) && value > 0

/**
 * Width and height as the header of `bytes` (already sniffed as `format`) declares them, turned by a JPEG's EXIF
 * orientation as libvips would; throws when the header holds no size.
 */
export function declaredSize(bytes: Uint8Array, format: RasterFormat): ImageSize {
  const reader = READERS[format]
  // image-size reads through a DataView on the bytes' whole ArrayBuffer: a view into a larger one (a pooled
  // Buffer) would let a header cut short be read on from whatever lies after it
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes)
  let read: ISize | undefined
  try {
    read = reader.validate(own) ? reader.calculate(own) : undefined
  } catch {
    // image-size's reasons name its reading (an offset out of bounds), not the file
  }
  if (!read || !isSize(read.width) || !isSize(read.height)) throw new Error(`its ${format} header holds no size`)
  const { width, height, orientation } = read
  return (orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height }
}
