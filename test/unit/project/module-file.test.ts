import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { placeModule } from '../../../src/project/module-file.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-module-file-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('placing a module in the project cache', () => {
  it('writes it in folders it makes', async () => {
    const file = join(dir, '.site/config/site.config.abc.mjs')
    await placeModule(file, 'export default 1\n')
    expect(await readFile(file, 'utf8')).toBe('export default 1\n')
  })

  it('names the module a cache it cannot write refused, and why', async () => {
    await writeFile(join(dir, '.site'), '')
    await expect(placeModule(join(dir, '.site/config/m.mjs'), 'x')).rejects.toMatchObject({
      code: 'ENOTDIR',
      message: expect.stringMatching(new RegExp(`^Writing ${join(dir, '.site/config/m.mjs')} failed: ENOTDIR`)),
    })
  })

  // Under /proc, as in a read-only cache, mkdir answers ENOENT though the folder above exists: Node's recursive
  // mkdir retries that for ever, at full CPU
  it.skipIf(!existsSync('/proc/self'))(
    'ends where a cache folder cannot be made (/proc)',
    async () => {
      await expect(placeModule('/proc/x/.site/config/m.mjs', 'x')).rejects.toMatchObject({
        code: 'ENOENT',
        message: expect.stringMatching(/^Writing \/proc\/x\/\.site\/config\/m\.mjs failed: ENOENT.*'\/proc\/x'/),
      })
    },
    3000,
  )
})
