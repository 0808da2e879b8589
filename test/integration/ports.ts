import { createServer } from 'node:net'

/** A loopback port nothing listens on: one that was free a moment ago (a server bound to it, then closed). */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as { port: number }
  await new Promise<void>((done) => server.close(() => done()))
  return port
}
