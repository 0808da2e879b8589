/**
 * Responsive variants of a raster image (`media: 'optimize'`), with sharp (libvips, on libuv's thread pool:
 * off the build's thread). Widths from `media.widths`, capped at the original width; AVIF and WebP, the
 * original format last as the `<img>` fallback. The image is decoded once (shrunk on load to the widest
 * variant), each variant resized from that.
 */
import { createHash } from 'node:crypto'
import sharp from 'sharp'
import type { RasterFormat } from './sniff.js'

export type OutputFormat = 'avif' | 'webp' | 'jpeg' | 'png'

/** File extension of each output format. */
export const FORMAT_EXTENSION: Readonly<Record<OutputFormat, string>> = {
  avif: 'avif',
  webp: 'webp',
  jpeg: 'jpg',
  png: 'png',
}

/**
 * Encoder settings, chosen for build time: measured on a 4000x2667 photograph, AVIF at effort 0 (of 9) is within
 * 10% of effort 2's bytes at a third of its time, WebP at effort 2 within 5% of effort 4's at a third, and a plain
 * progressive JPEG (the fallback few browsers still load) five times faster than mozjpeg's. Part of every
 * variant's name (VariantPlan.digest): changing them makes new files.
 */
const ENCODERS = {
  avif: { quality: 50, effort: 0 },
  webp: { quality: 75, effort: 2 },
  jpeg: { quality: 75, progressive: true },
  png: { compressionLevel: 6 },
} as const

export interface VariantPlan {
  widths: number[]
  /** Output formats, the fallback last. */
  formats: OutputFormat[]
  /** Short hash of everything that decides the variants' bytes besides the original's. */
  digest: string
}

/**
 * The variants of an image `width` pixels wide, or undefined for a format that gets none (GIF: often animated).
 * Example: (4000, 'jpeg', [400, 800, 2400]) -> widths [400, 800, 2400], formats avif, webp, jpeg;
 * (1000, 'png', [400, 800, 2400]) -> widths [400, 800, 1000].
 */
export function planVariants(width: number, format: RasterFormat, widths: readonly number[]): VariantPlan | undefined {
  if (format === 'gif') return undefined
  const capped = [...new Set(widths.map((w) => Math.min(w, width)))].sort((a, b) => a - b)
  // WebP and AVIF originals fall back to WebP, which every browser of the last years shows
  const formats: OutputFormat[] = format === 'avif' || format === 'webp' ? ['avif', 'webp'] : ['avif', 'webp', format]
  const digest = createHash('sha256')
    .update(JSON.stringify({ widths: capped, formats, encoders: ENCODERS }))
    .digest('hex')
    .slice(0, 8)
  return { widths: capped, formats, digest }
}

/** Width and height as displayed, from the header alone (no pixel decoded). */
export async function probeImage(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  // the header only: no pixel is decoded here, the caller compares the size with the limit itself
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata()
  const width = meta.width ?? 0
  const height = meta.height ?? 0
  const turned = (meta.orientation ?? 1) >= 5
  return turned ? { width: height, height: width } : { width, height }
}

export interface EncodedVariant {
  width: number
  format: OutputFormat
  bytes: Buffer
}

/**
 * libvips keeps recent operations and their pixels in a cache (50 MB by default) for pipelines that repeat: a
 * build never decodes the same image twice, so it only costs memory. Called once per build (a process-wide setting).
 */
export const disableOperationCache = (): void => {
  sharp.cache(false)
}

/** Every variant of a plan, widest first, one encode at a time (bounded memory). */
export async function encodeVariants(
  bytes: Uint8Array,
  plan: VariantPlan,
  limitInputPixels: number,
): Promise<EncodedVariant[]> {
  const widest = Math.max(...plan.widths)
  const { data, info } = await sharp(bytes, { limitInputPixels, failOn: 'error' })
    .rotate()
    .resize({ width: widest, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
  const raw = { width: info.width, height: info.height, channels: info.channels }
  const out: EncodedVariant[] = []
  for (const width of [...plan.widths].sort((a, b) => b - a))
    for (const format of plan.formats) {
      const image = sharp(data, { raw }).resize({ width: Math.min(width, info.width) })
      const encoded = await image.toFormat(format, ENCODERS[format]).toBuffer()
      out.push({ width, format, bytes: encoded })
    }
  return out
}
