import type { Readable } from 'node:stream'

/** Thrown by `readBody` when an answer is larger than allowed; the client turns it into `API_TOO_LARGE`. */
export class BodyTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`answer larger than ${limitBytes} bytes`)
    this.name = 'BodyTooLarge'
  }
}

/**
 * Reads a response body, at most `limitBytes`: a `content-length` over the limit is refused
 * before reading, a streamed body is destroyed (the connection closed) as soon as it passes it.
 * The bytes have a buffer of their own (never a slice of a shared one), so that a build can
 * transfer them to a render worker instead of copying them (see decodeBody for the text).
 */
export async function readBody(
  body: Readable,
  contentLength: string | string[] | undefined,
  limitBytes: number,
): Promise<Uint8Array> {
  const declared = typeof contentLength === 'string' ? Number(contentLength) : Number.NaN
  if (declared > limitBytes) {
    body.destroy()
    throw new BodyTooLarge(limitBytes)
  }
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.byteLength
    if (size > limitBytes) {
      body.destroy()
      throw new BodyTooLarge(limitBytes)
    }
    chunks.push(chunk)
  }
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return bytes
}

/** A body's bytes as UTF-8 text, a BOM dropped (as `body.text()` does). */
export const decodeBody = (bytes: Uint8Array): string => new TextDecoder().decode(bytes)
