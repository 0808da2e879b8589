import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

// zlib answers with fresh buffers over their own ArrayBuffer.
const brotli = promisify(brotliCompress) as (input: Buffer, options: object) => Promise<Buffer<ArrayBuffer>>
const gzipAsync = promisify(gzip) as (input: Buffer) => Promise<Buffer<ArrayBuffer>>

// Text formats only; images and archives are compressed already.
const COMPRESSIBLE_RE = /^(text\/|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/
/** Smaller bodies gain nothing worth the work. */
const MIN_BYTES = 1024

/**
 * Compresses a response body the way static hosts do (brotli when the client
 * accepts it, else gzip), so local measurements (Lighthouse) see real transfer sizes.
 */
export async function compressBody(
  request: Request,
  contentType: string,
  body: Buffer<ArrayBuffer>,
): Promise<{ body: Buffer<ArrayBuffer>; headers: Record<string, string> }> {
  if (body.byteLength < MIN_BYTES || !COMPRESSIBLE_RE.test(contentType)) return { body, headers: {} }
  const accepted = request.headers.get('accept-encoding') ?? ''
  const vary = { vary: 'accept-encoding' }
  if (/\bbr\b/.test(accepted))
    return {
      body: await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
      headers: { ...vary, 'content-encoding': 'br' },
    }
  if (/\bgzip\b/.test(accepted))
    return { body: await gzipAsync(body), headers: { ...vary, 'content-encoding': 'gzip' } }
  return { body, headers: vary }
}
