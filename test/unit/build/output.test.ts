import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkOutDir, createTempOutput, discardOutput, swapInOutput } from '../../../src/build/output.js'

describe('checkOutDir', () => {
  it.each([
    ['/', '/work/project'],
    ['/work/project', '/work/project'],
    ['/work', '/work/project'],
    ['/work/project/public', '/work/project'],
    ['/work/project/public/out', '/work/project'],
  ])('refuses %s for project %s', (out, root) =>
    expect(() => checkOutDir(out, root)).toThrow(expect.objectContaining({ code: 'USAGE' })),
  )

  it.each([
    ['/work/project/.output/public', '/work/project'],
    ['/work/site-out', '/work/project'],
    ['/work/project/public-out', '/work/project'],
  ])('accepts %s for project %s', (out, root) => expect(() => checkOutDir(out, root)).not.toThrow())
})

describe('temporary output and swap', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-output-'))
  })
  afterEach(() => rm(dir, { recursive: true, force: true }))

  it('creates the temporary folder beside OUT', async () => {
    const folders = await createTempOutput(join(dir, 'nested/out'), 'b1')
    expect(folders).toEqual({
      outDir: join(dir, 'nested/out'),
      tempDir: join(dir, 'nested/.out-tmp-b1'),
      oldDir: join(dir, 'nested/.out-old-b1'),
    })
    expect(await readdir(join(dir, 'nested'))).toEqual(['.out-tmp-b1'])
  })

  it('swaps a new output in and removes the old one', async () => {
    await mkdir(join(dir, 'out'))
    await writeFile(join(dir, 'out/old.html'), 'old')
    const folders = await createTempOutput(join(dir, 'out'), 'b2')
    await writeFile(join(folders.tempDir, 'new.html'), 'new')
    await swapInOutput(folders)
    expect(await readdir(dir)).toEqual(['out'])
    expect(await readdir(join(dir, 'out'))).toEqual(['new.html'])
  })

  it('swaps in when there was no output yet', async () => {
    const folders = await createTempOutput(join(dir, 'out'), 'b3')
    await writeFile(join(folders.tempDir, 'index.html'), 'x')
    await swapInOutput(folders)
    expect(await readFile(join(dir, 'out/index.html'), 'utf8')).toBe('x')
  })

  it('discarding leaves OUT as it was', async () => {
    await mkdir(join(dir, 'out'))
    await writeFile(join(dir, 'out/keep.html'), 'keep')
    const folders = await createTempOutput(join(dir, 'out'), 'b4')
    await writeFile(join(folders.tempDir, 'half.html'), 'half')
    await discardOutput(folders)
    expect(await readdir(dir)).toEqual(['out'])
    expect(await readFile(join(dir, 'out/keep.html'), 'utf8')).toBe('keep')
  })
})
