/**
 * A lock taken on a full disk: the file is made (an inode is left) but its process id cannot be written. No
 * empty lock is left behind for the next run to take over, and the refusal names the file, the cause and a hint
 * that speaks of space, not of permissions. The lock's write is made to fail as a full disk's does.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

/** While true, no byte can be written to a lock file. */
const disk = vi.hoisted(() => ({ full: false }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>()
  return {
    ...fs,
    open: async (...args: Parameters<typeof fs.open>) => {
      const handle = await fs.open(...args)
      if (!disk.full || !String(args[0]).endsWith('.lock')) return handle
      handle.writeFile = () =>
        Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))
      return handle
    },
  }
})

const { takeLock } = await import('../../../src/build/output/owner.js')
const { lockBuildOutput, outputLockFile } = await import('../../../src/build/output/output.js')

let dir: string
beforeEach(async () => {
  disk.full = true
  dir = await mkdtemp(join(tmpdir(), 'site-owner-full-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('a lock on a full disk', () => {
  it('is refused naming the file, and leaves no empty lock behind', async () => {
    const file = join(dir, 'publish.lock')
    const failed = vi.fn((why: string, cause?: unknown) => new Error(why, { cause }))
    await expect(takeLock(file, { held: (pid) => new Error(`held by ${pid}`), failed })).rejects.toThrow('ENOSPC')
    expect(failed.mock.calls[0]?.[1]).toMatchObject({
      code: 'ENOSPC',
      message: `Writing ${file} failed: ENOSPC: no space left on device, write`,
    })
    expect(await readdir(dir)).toEqual([])
  })

  it('refuses a build as OUT_DIR_UNWRITABLE with the cause, a hint about space, and no lock left', async () => {
    const out = join(dir, 'out')
    const error = await lockBuildOutput(out).catch((refused: unknown) => refused)
    expect(error).toMatchObject({
      code: 'OUT_DIR_UNWRITABLE',
      message: `Cannot build into ${out}: Writing ${outputLockFile(out, 'build')} failed: ENOSPC: no space left on device, write`,
      hint: expect.stringMatching(/disk .* is full/),
    })
    expect(await readdir(dir)).toEqual([])
  })
})
