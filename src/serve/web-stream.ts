import type { Readable } from 'node:stream'

/**
 * A Node stream as a Response body that reads only when the consumer asks
 * (`highWaterMark: 0`): memory stays at the Node stream's own buffer (64 KiB for
 * a file) however large the file and however slow the client. Cancelling the
 * body (a client gone) destroys the source, which closes its file.
 */
export function toWebStream(source: Readable): ReadableStream<Uint8Array> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await chunks.next()
        if (done) controller.close()
        else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength))
      },
      async cancel() {
        // the iterator's return() ends the source only once a read started it: a body cancelled before its
        // first read would keep its file open until garbage collection
        source.destroy()
        await chunks.return?.()
      },
    },
    { highWaterMark: 0 },
  )
}
