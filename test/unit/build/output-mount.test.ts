/**
 * An output folder that is a mount point (a container volume mounted at .output/public): its temporary sibling is
 * on another file system, so the build could never move its files in (EXDEV) nor move OUT aside (EBUSY), and found
 * out only after the whole build, with the state of the previous output moved aside. lstat is made to answer
 * another device for OUT, as the kernel would for a mount point.
 */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const mounted = vi.hoisted(() => ({ path: '', bound: '' }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>()
  const lstat = async (...args: [path: string]) => {
    const stats = await fs.lstat(args[0])
    if (String(args[0]) === mounted.path) stats.dev += 1
    return stats
  }
  // a bind mount of a folder of the same file system: the same device, a line of the mount table all the same
  const readFile = (async (...args: Parameters<typeof fs.readFile>) => {
    const text = await fs.readFile(...args)
    if (args[0] !== '/proc/self/mountinfo' || !mounted.bound) return text
    return `${text}999 1 254:1 /srv/site ${mounted.bound.replaceAll(' ', '\\040')} rw,relatime - ext4 /dev/vda1 rw\n`
  }) as typeof fs.readFile
  return { ...fs, default: { ...fs, lstat, readFile }, lstat, readFile }
})

const { createTempOutput } = await import('../../../src/build/output/output.js')

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-output-mount-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

/** createTempOutput refuses `out` as a mount point, naming it, and leaves nothing beside it. */
async function expectRefused(out: string): Promise<void> {
  await expect(createTempOutput(out)).rejects.toMatchObject({
    code: 'OUT_DIR_UNWRITABLE',
    message: expect.stringContaining(`Cannot build into ${out}: it is a mount point`),
  })
  expect(await readdir(dir)).toEqual([basename(out)])
}

describe('an output folder that is a mount point', () => {
  it('is refused before the build, naming it, with nothing left beside it', async () => {
    const out = join(dir, 'out')
    await mkdir(out)
    mounted.path = out
    await expectRefused(out)
  })

  it('is refused when it is a bind mount of a folder on the same file system (the same device)', async () => {
    // a container with the project and its output mounted from one host disk: the rename failed with a bare EBUSY
    const out = join(dir, 'public out')
    await mkdir(out)
    mounted.bound = out
    await expectRefused(out)
  })

  it('is not taken for one when it is on its parent folder`s file system', async () => {
    const out = join(dir, 'out')
    await mkdir(out)
    mounted.path = ''
    mounted.bound = ''
    expect((await createTempOutput(out)).outDir).toBe(out)
  })
})
