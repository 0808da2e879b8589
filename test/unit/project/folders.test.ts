import { existsSync } from 'node:fs'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createTempOutput, lockBuildOutput } from '../../../src/build/output/output.js'
import { preparePhotos } from '../../../src/demo/photos.js'
import { createDirTarget } from '../../../src/deploy/targets/dir.js'
import { writeScaffold } from '../../../src/init/write.js'
import { makeFolders } from '../../../src/project/folders.js'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'site-folders-'))
  dirs.push(dir)
  return dir
}

// Under /proc, mkdir answers ENOENT though the folder above exists: Node's recursive mkdir retries that for ever.
const procFs = existsSync('/proc/self')

describe('making folders', () => {
  it('makes the missing folders and answers the first it made, as mkdir -p', async () => {
    const dir = await tempDir()
    expect(await makeFolders(join(dir, 'a', 'b'))).toBe(join(dir, 'a'))
    expect((await stat(join(dir, 'a', 'b'))).isDirectory()).toBe(true)
    expect(await makeFolders(join(dir, 'a', 'b'))).toBeUndefined()
    await writeFile(join(dir, 'file'), '')
    await expect(makeFolders(join(dir, 'file', 'b'))).rejects.toMatchObject({ code: 'ENOTDIR' })
    await expect(makeFolders(join(dir, 'file'))).rejects.toMatchObject({ code: 'EEXIST' })
  })

  it.skipIf(!procFs)('ends where a folder cannot be made under one that exists (/proc)', async () => {
    await expect(makeFolders('/proc/x/out')).rejects.toMatchObject({ code: 'ENOENT', path: '/proc/x' })
  })

  it.skipIf(!procFs)('ends site build, site deploy dir: and site init there, naming the folder', async () => {
    await expect(lockBuildOutput('/proc/x/out')).rejects.toMatchObject({
      code: 'OUT_DIR_UNWRITABLE',
      message: expect.stringContaining('/proc/x'),
    })
    await expect(createTempOutput('/proc/x/out')).rejects.toMatchObject({
      code: 'OUT_DIR_UNWRITABLE',
      message: expect.stringContaining('/proc/x'),
    })
    const source = join(await tempDir(), 'index.html')
    await writeFile(source, '<!doctype html>')
    const file = { path: 'index.html', source, contentType: 'text/html', cacheControl: 'no-cache' }
    await expect(createDirTarget('/proc/x', await tempDir()).upload(file)).rejects.toMatchObject({
      code: 'DEPLOY_FAILED',
      message: expect.stringContaining('/proc/x'),
    })
    await expect(
      writeScaffold('/proc/x', [{ path: 'README.md', contents: '' }], { force: false }),
    ).rejects.toMatchObject({ code: 'INIT_WRITE_FAILED', message: expect.stringContaining('/proc/x') })
  })

  it.skipIf(!procFs)('ends site demo-api --photos under a TMPDIR there, naming the folder', async () => {
    const tmp = process.env.TMPDIR
    process.env.TMPDIR = '/proc/x'
    try {
      await expect(preparePhotos({ count: 1, width: 8, height: 8 })).rejects.toMatchObject({
        code: 'ENOENT',
        path: '/proc/x',
      })
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = tmp
    }
  })
})
