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
