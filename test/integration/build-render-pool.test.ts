/** Render workers (compiled dist/): template errors stop the build at once, with their own code. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRenderPool } from '../../src/build/render-pool.js'

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
