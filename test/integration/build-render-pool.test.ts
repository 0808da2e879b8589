/** Render workers (compiled dist/): template errors stop the build at once, with their own code. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashContents } from '../../src/build/output/write.js'
import { createByteRing, type RingRoom, ringReader, ringWriter } from '../../src/build/render-threads/byte-ring.js'
import type { PageFile } from '../../src/build/render-threads/render-files.js'
import type { PageOutput } from '../../src/build/render-threads/render-jobs.js'
import { borrow, createRenderPool, handOverFiles, transferOf } from '../../src/build/render-threads/render-pool.js'
import type { PageFact } from '../../src/build/types.js'

let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-pool-'))
  await mkdir(join(root, 'templates/layouts'), { recursive: true })
  await writeFile(join(root, 'templates/layouts/Default.tsx'), 'export default function Default( {\n')
})

afterAll(() => rm(root, { recursive: true, force: true }))

describe('render pool', () => {
  it('rejects ready with TEMPLATES_INVALID when the templates do not compile, and fails the jobs it cannot run', async () => {
    const pool = createRenderPool({ root, threads: 2, timeoutMs: 60_000 })
    try {
      const ready = await pool.ready.then(
        () => undefined,
        (error: unknown) => error,
      )
      expect(ready).toMatchObject({ code: 'TEMPLATES_INVALID' })
      const output = await pool.page(
        {
          path: '/',
          locale: 'en',
          answer: { url: 'http://api.test/', status: 200, body: new TextEncoder().encode('{}'), headers: {} },
        },
        (out) => out,
      )
      // the job is a failed page, with the reason the pool broke: page() rejects only with what `use` throws
      expect(output).toEqual({
        type: 'failed',
        kind: 'RENDER_FAILED',
        status: 500,
        reason: (ready as Error).message,
        renderMs: 0,
      })
    } finally {
      await pool.close()
    }
  })
})

describe('what a render job moves to its worker', () => {
  const answer = (body: Uint8Array) => ({ url: 'http://api.test/', status: 200, body, headers: {} })

  it('moves bytes with a buffer of their own, copies a slice of a shared one', () => {
    const own = new TextEncoder().encode('{"id":1}')
    expect(transferOf({ path: '/', locale: 'en', answer: answer(own) })).toEqual([own.buffer])
    const kept = new Uint8Array(new ArrayBuffer(8))
    expect(transferOf({ path: '/', locale: 'en', payload: kept })).toEqual([kept.buffer])
    // small Buffers share Node's pool: never moved
    const pooled = Buffer.from('{"id":1}')
    expect(pooled.byteLength).toBeLessThan(pooled.buffer.byteLength)
    expect(transferOf({ path: '/', locale: 'en', answer: answer(pooled) })).toEqual([])
    expect(transferOf({ locale: 'en' })).toEqual([])
  })
})

describe("how a render worker hands a page's files back", () => {
  const html = '<p>ż</p>'.repeat(10)
  const payload = '{"page":{}}'
  const files = () => [
    { path: 'a/index.html', contents: html },
    { path: 'a/_payload.json', contents: payload },
  ]

  it("through the byte ring, in place, until the build's thread releases them", () => {
    const buffer = createByteRing(1024)
    const reader = ringReader(buffer)
    const handed = handOverFiles(files(), undefined, ringWriter(buffer))
    expect(handed.transfer).toEqual([])
    expect(handed.files.map((file) => file.contents)).toEqual([undefined, undefined])
    const { output, slices } = borrow(reader, {
      type: 'done',
      id: 1,
      output: page(handed.files),
      slices: handed.slices,
    })
    const got = 'files' in output ? output.files : []
    expect(got.map((file) => Buffer.from(file.contents as Uint8Array).toString())).toEqual([html, payload])
    expect(got.map((file) => (file.contents as Uint8Array).buffer)).toEqual([buffer, buffer])
    expect(got.map((file) => file.hash)).toEqual([hashContents(html), hashContents(payload)])
    expect(slices).toHaveLength(2)
  })

  it('in the room the worker encoded the document in, with no copy; room no file holds goes back at once', () => {
    const buffer = createByteRing(1024)
    const writer = ringWriter(buffer)
    const reader = ringReader(buffer)
    const encoded = new TextEncoder().encode(html)
    const room = writer.reserve(encoded.byteLength)!
    room.bytes.set(encoded)
    const handed = handOverFiles([{ path: 'a/index.html', contents: room.bytes }], undefined, writer, [room])
    expect(handed.slices).toEqual([room.slice])
    expect(handed.free).toBeUndefined()
    // unchanged since the previous output: no file, and its room free
    const again = writer.reserve(encoded.byteLength)!
    again.bytes.set(encoded)
    const kept = handOverFiles(
      [{ path: 'a/index.html', contents: again.bytes }],
      [hashContents(html), undefined],
      writer,
      [again],
    )
    expect(kept.files).toEqual([{ path: 'a/index.html', hash: hashContents(html) }])
    expect(kept.free).toEqual([again.slice])
    borrow(reader, { type: 'done', id: 1, output: page(kept.files), slices: kept.slices, free: kept.free })
    // the second room is free, but the first is not released yet: the end has room, the front has none
    expect(writer.reserve(1024 - 2 * encoded.byteLength)).toBeDefined()
    expect(writer.reserve(encoded.byteLength)).toBeUndefined()
    const { output, slices } = borrow(reader, {
      type: 'done',
      id: 2,
      output: page(handed.files),
      slices: handed.slices,
    })
    expect(Buffer.from(('files' in output ? output.files : [])[0]!.contents as Uint8Array).toString()).toBe(html)
    for (const slice of slices) reader.release(slice)
    expect(writer.reserve(encoded.byteLength)).toMatchObject({ slice: { offset: 0 } })
  })

  it('holds every room the job took in `taken`, so that a failed hand-over can free all of it', () => {
    const buffer = createByteRing(1024)
    const taken: RingRoom[] = []
    const writer = ringWriter(buffer, (room) => taken.push(room))
    const document = writer.reserve(90)!
    const handed = handOverFiles(
      [
        { path: 'a/index.html', contents: document.bytes },
        { path: 'a/_payload.json', contents: payload },
      ],
      [hashContents(document.bytes), undefined],
      writer,
      taken,
    )
    // the payload was put (and so taken) and is held by its file; the unchanged document's room is free
    expect(taken.map((room) => room.slice)).toEqual([document.slice, handed.slices?.[1]])
    expect(handed.free).toEqual([document.slice])
  })

  it('transferred when the ring is full, and as a hash alone when the previous output has the same bytes', () => {
    const buffer = createByteRing(50)
    const handed = handOverFiles(files(), [undefined, hashContents(payload)], ringWriter(buffer))
    expect(handed.slices).toBeUndefined()
    expect(handed.transfer).toHaveLength(1)
    const { output, slices } = borrow(ringReader(buffer), {
      type: 'done',
      id: 1,
      output: page(handed.files),
      slices: handed.slices,
    })
    const got = 'files' in output ? output.files : []
    expect(Buffer.from(got[0]!.contents as Uint8Array).toString()).toBe(html)
    expect(got[1]).toEqual({ path: 'a/_payload.json', hash: hashContents(payload) })
    expect(slices).toEqual([])
  })
})

function page(files: PageFile[]): PageOutput {
  return {
    type: 'page',
    files,
    fact: { path: '/a', locale: 'en', alternates: [] } as unknown as PageFact,
    uid: 1,
    links: { from: '/a', nav: [], content: [] },
    skipped: [],
    fallbacks: [],
    renderMs: 0,
  }
}
