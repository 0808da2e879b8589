/**
 * What sharp (libvips) does for the build: read an image's size from its header and encode its responsive
 * variants. Loaded only by the image process (image-process-main.ts), never by the build's own threads.
 */
import type { LimitFunction } from 'p-limit'
import sharp from 'sharp'
import { ENCODERS, type OutputFormat, type VariantPlan } from './variants.js'

export interface ImageSize {
  width: number
  height: number
  /** Several frames (an animated WebP, AVIF or PNG): one frame's size above. */
  animated?: true
}

/** Width and height as displayed, from the header of the image file `file` alone (no pixel decoded). */
export async function probeImage(file: string): Promise<ImageSize> {
  // the header only: no pixel is decoded here, the caller compares the size with the limit itself
  const meta = await sharp(file, { limitInputPixels: false }).metadata()
  const width = meta.width ?? 0
  const height = meta.height ?? 0
  const turned = (meta.orientation ?? 1) >= 5
  const size = turned ? { width: height, height: width } : { width, height }
  return (meta.pages ?? 1) > 1 ? { ...size, animated: true } : size
}

export interface EncodedVariant {
  width: number
  format: OutputFormat
  bytes: Buffer
}

/**
 * libvips keeps recent operations and their pixels in a cache (50 MB by default) for pipelines that repeat: a
 * build never decodes the same image twice, so it only costs memory. Called once by the image process.
 */
export const disableOperationCache = (): void => {
  sharp.cache(false)
}

/**
 * Every variant of a plan for the image file `file`, widest first, one encode at a time (bounded memory); AVIF
 * encodes through `heavy`, which the caller shares between images encoded side by side.
 */
export async function encodeVariants(
  file: string,
  plan: VariantPlan,
  limitInputPixels: number,
  heavy: LimitFunction,
): Promise<EncodedVariant[]> {
  const widest = Math.max(...plan.widths)
  const { data, info } = await sharp(file, { limitInputPixels, failOn: 'error' })
    .rotate()
    .resize({ width: widest, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
  const raw = { width: info.width, height: info.height, channels: info.channels }
  const out: EncodedVariant[] = []
  for (const width of [...plan.widths].sort((a, b) => b - a))
    for (const format of plan.formats) {
      const image = sharp(data, { raw }).resize({ width: Math.min(width, info.width) })
      const encode = () => image.toFormat(format, ENCODERS[format]).toBuffer()
      const encoded = await (format === 'avif' ? heavy(encode) : encode())
      out.push({ width, format, bytes: encoded })
    }
  return out
}

/** Most characters of a libvips error kept in a build's message. */
const MAX_ERROR_CHARS = 300

/**
 * libvips's error about the image file `file` as one line for a build's message: libvips repeats a line for each
 * pass over a bad file, and names the file by its path in the output being written (gone once the build ends; the
 * build names it by its URL). Example: 'Input file has corrupt header: VipsJpeg: Bogus Huffman table
 * definition\nVipsJpeg: Bogus Huffman table definition' -> its first line.
 */
export function errorLine(message: string, file: string): string {
  const lines = [...new Set(message.split('\n').map((line) => line.trim()))].filter((line) => line !== '')
  const aboutFile = (line: string) => line.startsWith(`${file}:`)
  const told = lines.some((line) => !aboutFile(line))
    ? lines.filter((line) => !aboutFile(line))
    : lines.map((line) => line.slice(file.length + 1).trim())
  const line = told.filter((line, i) => !told.slice(0, i).some((before) => before.includes(line))).join(' ')
  return line.length > MAX_ERROR_CHARS ? `${line.slice(0, MAX_ERROR_CHARS - 1)}…` : line
}
