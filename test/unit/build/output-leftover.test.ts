/**
 * A committed output whose leftover folder beside OUT cannot be removed (its parent made read-only, a file in it
 * held on another file system): OUT is already the new output, so the commit succeeds; the next build removes
 * the leftover (removeStaleSiblings). rmSync is made to refuse the folders beside OUT, as the kernel would.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

/** While true, rmSync refuses the folders beside OUT; the next build's removeStaleSiblings runs with it false. */
const parent = vi.hoisted(() => ({ readOnly: true }))

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  const refused = (path: unknown) => parent.readOnly && /^\.out-(tmp|old)-/.test(basename(String(path)))
  return {
    ...fs,
    rmSync: (path: Parameters<typeof fs.rmSync>[0], options?: Parameters<typeof fs.rmSync>[1]) => {
      if (refused(path))
        throw Object.assign(new Error(`EPERM: operation not permitted, rmdir '${path}'`), { code: 'EPERM' })
      fs.rmSync(path, options)
    },
  }
})

const { applyToOutput, createTempOutput, discardOutput, removeStaleSiblings, swapInOutput } = await import(
  '../../../src/build/output/output.js'
)

let dir: string
beforeEach(async () => {
  parent.readOnly = true
  dir = await mkdtemp(join(tmpdir(), 'site-output-leftover-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('a commit whose leftover folder cannot be removed', () => {
  it('swaps the new output in and leaves the old one for the next build', async () => {
    const out = join(dir, 'out')
    await mkdir(out)
    await writeFile(join(out, 'old.html'), 'old')
    const folders = await createTempOutput(out)
    await writeFile(join(folders.tempDir, 'new.html'), 'new')
    await swapInOutput(folders)
    expect(await readdir(out)).toEqual(['new.html'])
    parent.readOnly = false
    expect(await removeStaleSiblings(out)).toEqual([basename(folders.oldDir)])
  })

  it('moves the written files in and leaves the temporary folder for the next build', async () => {
    const out = join(dir, 'out')
    await mkdir(out)
    await writeFile(join(out, 'page.html'), 'before')
    const folders = await createTempOutput(out)
    await writeFile(join(folders.tempDir, 'page.html'), 'after')
    await applyToOutput(folders, { written: ['page.html'], removed: [] })
    expect(await readFile(join(out, 'page.html'), 'utf8')).toBe('after')
    parent.readOnly = false
    expect(await removeStaleSiblings(out)).toEqual([basename(folders.tempDir)])
  })

  it("discards a failed build's temporary folder without a failure of its own, which would hide the build's", async () => {
    const out = join(dir, 'out')
    const folders = await createTempOutput(out)
    await expect(discardOutput(folders)).resolves.toBeUndefined()
    parent.readOnly = false
    expect(await removeStaleSiblings(out)).toEqual([basename(folders.tempDir)])
  })
})
