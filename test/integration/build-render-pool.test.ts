/** Render workers (compiled dist/): template errors stop the build at once, with their own code. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRenderPool, transferOf } from '../../src/build/render-pool.js'

let root: string

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-pool-'))
  await mkdir(join(root, 'templates/layouts'), { recursive: true })
  await writeFile(join(root, 'templates/layouts/Default.tsx'), 'export default function Default( {\n')
})

afterAll(() => rm(root, { recursive: true, force: true }))

describe('render pool', () => {
  it('rejects ready with TEMPLATES_INVALID when the templates do not compile, and refuses jobs', async () => {
    const pool = createRenderPool({ root, threads: 2 })
    try {
      await expect(pool.ready).rejects.toMatchObject({ code: 'TEMPLATES_INVALID' })
      await expect(
        pool.page({
          path: '/',
          locale: 'en',
          answer: { url: 'http://api.test/', status: 200, body: new TextEncoder().encode('{}'), headers: {} },
        }),
      ).rejects.toMatchObject({ code: 'TEMPLATES_INVALID' })
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
