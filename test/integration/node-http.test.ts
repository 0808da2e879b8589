/**
 * The node:http binding of `site serve` and `site preview` writes a Response body
 * at the pace the client reads it (20 requests for a 100 MB file
 * once took `site serve` to 2.1 GB): a client that stops reading stops the body too.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { toNodeListener } from '../../src/serve/node-http.js'
import { closeServer } from '../../src/serve/server.js'

const CHUNK = new Uint8Array(64 * 1024)
const BODY_BYTES = 1024 * 1024 * 1024

let server: Server | undefined
afterEach(async () => {
  if (server) await closeServer(server)
  server = undefined
})

/** A server whose one answer is a 1 GiB body made on demand, counting what the binding has pulled from it. */
async function startCountingServer(): Promise<{ port: number; pulled: () => number; cancelled: () => boolean }> {
  let pulled = 0
  let cancelled = false
  server = createServer(
    toNodeListener(async () => {
      const body = new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            if (pulled >= BODY_BYTES) return controller.close()
            pulled += CHUNK.byteLength
            controller.enqueue(CHUNK)
          },
          cancel() {
            cancelled = true
          },
        },
        { highWaterMark: 0 },
      )
      return new Response(body, { headers: { 'content-type': 'application/octet-stream' } })
    }),
  )
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done))
  return { port: (server.address() as AddressInfo).port, pulled: () => pulled, cancelled: () => cancelled }
}

/** Polls until `read()` stops changing (two equal readings 100 ms apart), then returns it. */
async function settled(read: () => number): Promise<number> {
  let last = -1
  for (let i = 0; i < 100; i++) {
    const now = read()
    if (now === last && now > 0) return now
    last = now
    await delay(100)
  }
  return read()
}

describe('node:http binding', () => {
  it('stops pulling the body while the client does not read, and lets go of it when the client leaves', async () => {
    const { port, pulled, cancelled } = await startCountingServer()
    const socket = connect(port, '127.0.0.1')
    await new Promise<void>((done) => socket.once('connect', done))
    socket.pause() // read nothing: only the socket buffers take what the server writes
    socket.write('GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    const held = await settled(pulled)
    // Socket buffers on loopback take a few MB; before the binding waited for 'drain', it pulled the whole GiB.
    expect(held).toBeLessThan(64 * 1024 * 1024)
    socket.destroy()
    await expect.poll(cancelled).toBe(true)
    expect(pulled()).toBeLessThan(BODY_BYTES)
  })
})
