import type { Readable } from 'node:stream'

/** Thrown by `readBodyText` when an answer is larger than allowed; the client turns it into `API_TOO_LARGE`. */
export class BodyTooLarge extends Error {
  constructor(readonly limitBytes: number) {
    super(`answer larger than ${limitBytes} bytes`)
    this.name = 'BodyTooLarge'
  }
}

/**
 * Reads a response body as UTF-8 text (a BOM dropped, as `body.text()` does), at
 * most `limitBytes`: a `content-length` over the limit is refused before reading,
 * a streamed body is destroyed (the connection closed) as soon as it passes it.
 */
export async function readBodyText(
  body: Readable,
  contentLength: string | string[] | undefined,
  limitBytes: number,
): Promise<string> {
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
  return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size))
}
