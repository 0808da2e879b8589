/**
 * fetchFile against a loopback server: a body is taken as sent, so one sent with a content coding (a proxy that
 * compresses whatever the client asks) is refused rather than copied compressed under the file's name.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { Agent } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fetchFile } from '../../../src/media/fetch.js'

const CSV = Buffer.from('a,b\n1,2\n')

let server: Server
let origin: string
const agent = new Agent()
const asked: IncomingHttpHeaders[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    asked.push(request.headers)
    if (request.url === '/gzip.csv') {
      // compressed whatever the request accepts
      const body = gzipSync(CSV)
      response.writeHead(200, { 'content-type': 'text/csv', 'content-encoding': 'gzip', 'content-length': body.length })
      response.end(body)
      return
    }
    if (request.url === '/moved.csv') {
      // a CMS moved to https: every file answers with a redirect
      response.writeHead(301, { location: 'https://cms.example/moved.csv' })
      response.end()
      return
    }
    const coding = request.url === '/identity.csv' ? { 'content-encoding': 'identity' } : {}
    response.writeHead(200, { 'content-type': 'text/csv', 'content-length': CSV.length, ...coding })
    response.end(CSV)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await agent.close()
  await new Promise((done) => server.close(done))
})

const fetchAt = (path: string) => fetchFile(`${origin}${path}`, { timeoutMs: 5000, maxBytes: 1024, dispatcher: agent })

describe('fetchFile', () => {
  it('asks for the file without content coding and takes a plain answer as sent', async () => {
    for (const path of ['/plain.csv', '/identity.csv']) {
      const fetched = await fetchAt(path)
      expect(fetched).toMatchObject({ type: 'body', contentType: 'text/csv' })
      expect(Buffer.from((fetched as { body: Uint8Array }).body)).toEqual(CSV)
    }
    expect(asked.at(-1)?.['accept-encoding']).toBe('identity')
  })

  it("asks for no content coding whatever the API's headers name in capitals (a file of the API's host)", async () => {
    const headers = { 'Accept-Encoding': 'gzip', Accept: 'application/json', 'X-Site': 'demo' }
    await fetchFile(`${origin}/plain.csv`, { timeoutMs: 5000, maxBytes: 1024, dispatcher: agent, headers })
    expect(asked.at(-1)).toMatchObject({ 'accept-encoding': 'identity', accept: '*/*', 'x-site': 'demo' })
  })

  it('refuses a body sent compressed all the same, naming the coding and the URL', async () => {
    const fetched = await fetchAt('/gzip.csv')
    expect(fetched).toEqual({
      type: 'failed',
      kind: 'MEDIA_HTTP',
      reason: `the file answered with Content-Encoding gzip, which the build does not decode (GET ${origin}/gzip.csv)`,
    })
  })

  it('refuses a redirect, naming where it points, which the build does not follow', async () => {
    const fetched = await fetchAt('/moved.csv')
    expect(fetched).toEqual({
      type: 'failed',
      kind: 'MEDIA_HTTP',
      reason: `the file answered HTTP 301, a redirect to https://cms.example/moved.csv, which the build does not follow (GET ${origin}/moved.csv)`,
    })
  })
})
