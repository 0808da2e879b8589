import type { Transform } from 'node:stream'
import { constants, createBrotliCompress, createGzip } from 'node:zlib'

// Text formats only; images and archives are compressed already.
const COMPRESSIBLE_RE = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/
/** Smaller bodies gain nothing worth the work. */
const MIN_BYTES = 1024
/** Brotli quality of on-the-fly compression: close to the best ratio at a fraction of quality 11's cost. */
const BROTLI_QUALITY = 5

export type Encoding = 'br' | 'gzip'

/** True for the types a static host compresses (HTML, CSS, JS, JSON, SVG…): their answers vary by `accept-encoding`. */
export const isCompressible = (contentType: string): boolean => COMPRESSIBLE_RE.test(contentType)

/**
 * True when an `Accept-Encoding` value lists `coding` with a weight above 0 (RFC 9110 section 12.5.3:
 * `q=0` means "not acceptable"). Example: ('gzip, br;q=0', 'gzip') -> true; (same, 'br') -> false.
 */
function accepts(acceptEncoding: string, coding: Encoding): boolean {
  for (const entry of acceptEncoding.split(',')) {
    const [name = '', ...params] = entry.split(';').map((part) => part.trim())
    if (name.toLowerCase() !== coding) continue
    const weight = params.find((param) => param.toLowerCase().startsWith('q='))
    return weight === undefined || Number(weight.slice(2)) > 0
  }
  return false
}

/**
 * The encoding a static host would answer with (brotli when the client accepts
 * it, else gzip), so local measurements (Lighthouse) see real transfer sizes;
 * undefined for small or binary files and clients that accept neither.
 */
export function chooseEncoding(request: Request, contentType: string, size: number): Encoding | undefined {
  if (size < MIN_BYTES || !isCompressible(contentType)) return undefined
  const accepted = request.headers.get('accept-encoding') ?? ''
  if (accepts(accepted, 'br')) return 'br'
  if (accepts(accepted, 'gzip')) return 'gzip'
  return undefined
}

/** A streaming compressor for `encoding`: the file flows through it chunk by chunk, never whole. */
export function createCompressor(encoding: Encoding, size: number): Transform {
  return encoding === 'br'
    ? createBrotliCompress({
        params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: size },
      })
    : createGzip()
}
