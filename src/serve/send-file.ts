import { type FileHandle, open, stat } from 'node:fs/promises'
import { pipeline, type Readable, Transform } from 'node:stream'
import { chooseEncoding, createCompressor, type Encoding, isCompressible } from './compress.js'
import { isIfRangeCurrent, isNotModified, isPreconditionFailed, validatorsOf } from './conditional.js'
import { contentTypeOf } from './content-types.js'
import { parseRange } from './range.js'
import { toWebStream } from './web-stream.js'

/**
 * One file as a static host answers with it: streamed (never read whole), text
 * compressed on the fly, `Range` (one range: 206, or 416) and conditional requests
 * (`If-Match`, `If-Unmodified-Since`: 412; `If-None-Match`, `If-Modified-Since`: 304; `If-Range`)
 * on 200 answers. A 404 page is sent whole with its status; a Range answer is never compressed.
 */
export interface SendFileOptions {
  request: Request
  /** Absolute path, already checked to be inside the served folder. */
  file: string
  cacheControl: string
  status: 200 | 404
}

interface Body {
  start: number
  end: number
  encoding?: Encoding
}

/** The answer for `file`, or undefined when it is not a regular file. */
export async function sendFile(options: SendFileOptions): Promise<Response | undefined> {
  const { request, file, status } = options
  // stat before open: opening a FIFO would wait for a writer.
  if (!(await stat(file).catch(() => undefined))?.isFile()) return undefined
  const handle = await open(file, 'r').catch(() => undefined)
  if (!handle) return undefined
  let streaming = false
  try {
    const info = await handle.stat()
    if (!info.isFile()) return undefined
    const type = contentTypeOf(file)
    const validators = validatorsOf(info)
    const encoding = chooseEncoding(request, type, info.size)
    const headers: Record<string, string> = {
      'content-type': type,
      'cache-control': options.cacheControl,
      etag: encoding ? `W/${validators.etag}` : validators.etag,
      'last-modified': validators.lastModified,
      ...(isCompressible(type) ? { vary: 'accept-encoding' } : {}),
    }
    const answer = (code: number, body?: Body, extra: Record<string, string> = {}) => {
      const all = { ...headers, ...extra }
      if (!body || request.method === 'HEAD') return new Response(null, { status: code, headers: all })
      streaming = true
      return new Response(toWebStream(readBody(handle, file, body)), { status: code, headers: all })
    }
    const full: Body = { start: 0, end: info.size - 1, encoding }
    const fullHeaders: Record<string, string> = encoding
      ? { 'content-encoding': encoding }
      : { 'content-length': String(info.size) }
    if (status === 404) return answer(404, full, fullHeaders)

    headers['accept-ranges'] = 'bytes'
    if (isPreconditionFailed(request.headers, validators.etag, info.mtimeMs)) return answer(412)
    if (isNotModified(request.headers, headers.etag!, info.mtimeMs)) return answer(304)
    const range =
      request.method === 'GET' && isIfRangeCurrent(request.headers, validators)
        ? parseRange(request.headers.get('range'), info.size)
        : { type: 'none' as const }
    if (range.type === 'unsatisfiable') return answer(416, undefined, { 'content-range': `bytes */${info.size}` })
    if (range.type === 'range')
      return answer(206, range, {
        etag: validators.etag,
        'content-range': `bytes ${range.start}-${range.end}/${info.size}`,
        'content-length': String(range.end - range.start + 1),
      })
    return answer(200, full, fullHeaders)
  } finally {
    if (!streaming) await handle.close()
  }
}

/**
 * The bytes `body` names, through a compressor when it has an encoding; destroying the result closes the file.
 * A file that shrinks while it is sent fails the stream at its end, so the client sees a cut answer (the
 * connection dropped) rather than a short one it would take as whole (a compressed answer has no length).
 */
function readBody(handle: FileHandle, file: string, body: Body): Readable {
  const length = body.end - body.start + 1
  // An empty file has `end` -1, which createReadStream refuses; 0 reads nothing from it just the same.
  const bytes = handle.createReadStream({ start: body.start, end: Math.max(body.end, 0), autoClose: true })
  let sent = 0
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      sent += chunk.byteLength
      done(null, chunk)
    },
    flush(done) {
      done(sent < length ? new Error(`${file} shrank while it was sent (${sent} of ${length} bytes)`) : null)
    },
  })
  if (!body.encoding) return pipeline(bytes, counted, () => {})
  return pipeline(bytes, counted, createCompressor(body.encoding, length), () => {})
}
