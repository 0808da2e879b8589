/**
 * The media service against a loopback CMS: what a file that lies about its type is refused with, the reason
 * telling which of its name, its Content-Type and its bytes disagree; what a file the disk cannot take is.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pLimit from 'p-limit'
import sharp from 'sharp'
import { Agent } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFileWriter } from '../../../src/build/output/write.js'
import { resolveSites } from '../../../src/config/resolve.js'
import { writingFailed } from '../../../src/errors.js'
import { createMediaService, type MediaServiceOptions, type MediaWriter } from '../../../src/media/service.js'

/** Path -> the bytes and Content-Type the CMS answers with. */
const FILES = new Map<string, { body: Buffer; type: string }>()

let server: Server
let origin: string
let tmp: string
const agent = new Agent()

beforeAll(async () => {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#357' } })
    .png()
    .toBuffer()
  FILES.set('/png-sent-as-jpeg.png', { body: png, type: 'image/jpeg' })
  FILES.set('/png-named-jpg.jpg', { body: png, type: 'image/jpeg' })
  FILES.set('/copy.png', { body: png, type: 'image/png' })
  const wide = await sharp({ create: { width: 1200, height: 8, channels: 3, background: '#753' } })
    .png()
    .toBuffer()
  FILES.set('/wide.png', { body: wide, type: 'image/png' })
  server = createServer((request, response) => {
    const file = FILES.get(request.url ?? '')
    if (!file) return response.writeHead(404).end()
    response.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length }).end(file.body)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  tmp = await mkdtemp(join(tmpdir(), 'site-media-service-'))
})

afterAll(async () => {
  await agent.close()
  await new Promise((done) => server.close(done))
  await rm(tmp, { recursive: true, force: true })
})

function service(options: { writer?: MediaWriter; onLateFailure?: MediaServiceOptions['onLateFailure'] } = {}) {
  const [site] = resolveSites({ media: { mode: 'optimize' } }, { apiBaseUrl: origin }, 'test')
  return createMediaService({
    site: site!,
    writer: options.writer ?? createFileWriter(join(tmp, 'out')),
    outDir: join(tmp, 'previous'),
    apiSlot: pLimit(2),
    previous: new Map(),
    partial: () => undefined,
    refetch: new Set(),
    refetchShownBy: () => false,
    onLateFailure: options.onLateFailure ?? (() => {}),
    dispatcher: agent,
  })
}

/** A writer on a disk that is full for the paths `full` matches: each is refused as the output's writer does. */
function fullDiskWriter(full: (path: string) => boolean): MediaWriter {
  const writer = createFileWriter(join(tmp, 'full'))
  const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
  return {
    root: writer.root,
    write: (path, contents) =>
      full(path) ? Promise.reject(writingFailed(join(writer.root, path), enospc)) : writer.write(path, contents),
    keep: (path) => writer.keep(path),
    previousHash: (path) => writer.previousHash(path),
  }
}

describe('media service: a file that lies about its type', () => {
  it('says which of name, Content-Type and bytes disagree', async () => {
    const media = service()
    try {
      const lied = `${origin}/png-sent-as-jpeg.png`
      const misnamed = `${origin}/png-named-jpg.jpg`
      const map = await media.resolve(
        [
          { url: lied, shown: true },
          { url: misnamed, shown: true },
        ],
        '/page',
      )
      // the bytes are what the name says: the Content-Type is what lies, and the reason says so
      expect(map?.[lied]).toEqual({
        failed: 'MEDIA_TYPE_MISMATCH',
        reason: `the file's bytes are png, as its name says, but it was sent as Content-Type image/jpeg (GET ${lied})`,
      })
      expect(map?.[misnamed]).toEqual({
        failed: 'MEDIA_TYPE_MISMATCH',
        reason: `the file claims to be jpeg (its name, Content-Type image/jpeg) but its bytes are png (GET ${misnamed})`,
      })
    } finally {
      await media.close()
    }
  })
})

describe('media service: a full disk', () => {
  it('fails a file whose copy cannot be written as WRITE_FAILED, naming the file, not as a network failure', async () => {
    const media = service({ writer: fullDiskWriter(() => true) })
    try {
      const url = `${origin}/copy.png`
      const map = await media.resolve([{ url, shown: true }], '/page')
      expect(map?.[url]).toEqual({
        failed: 'WRITE_FAILED',
        reason: expect.stringMatching(
          new RegExp(`^Writing ${join(tmp, 'full/_site/media/')}\\S+/copy\\.png failed: ENOSPC: .* \\(GET ${url}\\)$`),
        ),
      })
    } finally {
      await media.close()
    }
  })

  it('fails a page whose image variants cannot be written as WRITE_FAILED, not as an encode failure', async () => {
    const late: Array<{ kind: string; reason: string; path: string }> = []
    const media = service({
      writer: fullDiskWriter((path) => /-\d+w\.\w+$/.test(path)),
      onLateFailure: (failure) => late.push(failure),
    })
    const url = `${origin}/wide.png`
    const map = await media.resolve([{ url, shown: true }], '/page')
    expect(map?.[url]).toMatchObject({ url: expect.stringMatching(/wide\.png$/) })
    await media.finish()
    expect(late).toEqual([
      {
        kind: 'WRITE_FAILED',
        reason: expect.stringMatching(
          new RegExp(`^Writing ${join(tmp, 'full/_site/media/')}\\S+ failed: ENOSPC: .* \\(GET ${url}\\)$`),
        ),
        path: '/page',
      },
    ])
  })
})
