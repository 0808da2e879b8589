/**
 * Which responsive variants a raster image gets (`media: 'optimize'`): widths from `media.widths`, capped at the
 * original width; AVIF and WebP, the original format last as the `<img>` fallback. encode.ts makes them.
 */
import { createHash } from 'node:crypto'
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
export const ENCODERS = {
  avif: { quality: 50, effort: 0 },
  webp: { quality: 75, effort: 2 },
  jpeg: { quality: 75, progressive: true },
  png: { compressionLevel: 6 },
} as const

/** The longest side of a variant: WebP holds 16383 pixels (AVIF, as libheif builds it for sharp, 16384). */
const MAX_VARIANT_SIDE = 16383

export interface VariantPlan {
  widths: number[]
  /** Output formats, the fallback last. */
  formats: OutputFormat[]
  /** Short hash of everything that decides the variants' bytes besides the original's. */
  digest: string
}

/**
 * The variants of an image `width` x `height` pixels, or undefined for a format that gets none (GIF: often
 * animated). Each width is capped at the image's own, and at the width whose height AVIF and WebP still hold.
 * Example: (4000, 2667, 'jpeg', [400, 800, 2400]) -> widths [400, 800, 2400], formats avif, webp, jpeg;
 * (1000, 600, 'png', [400, 800, 2400]) -> widths [400, 800, 1000]; (800, 32766, 'png', [400, 800]) -> [400].
 */
export function planVariants(
  width: number,
  height: number,
  format: RasterFormat,
  widths: readonly number[],
): VariantPlan | undefined {
  if (format === 'gif') return undefined
  // a tall image (a long infographic) at its own width may be taller than AVIF and WebP can be
  const widest = Math.min(width, Math.floor((MAX_VARIANT_SIDE * width) / height))
  if (!Number.isFinite(widest) || widest < 1) return undefined
  const capped = [...new Set(widths.map((w) => Math.min(w, widest)))].sort((a, b) => a - b)
  // WebP and AVIF originals fall back to WebP, which every browser of the last years shows
  const formats: OutputFormat[] = format === 'avif' || format === 'webp' ? ['avif', 'webp'] : ['avif', 'webp', format]
  const digest = createHash('sha256')
    .update(JSON.stringify({ widths: capped, formats, encoders: ENCODERS }))
    .digest('hex')
    .slice(0, 8)
  return { widths: capped, formats, digest }
}
