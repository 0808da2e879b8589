/**
 * A lock whose file cannot be removed as its holder ends (the folder beside OUT made read-only during a build):
 * the release does not fail the run that held it, whose outcome is already decided; the file names a process that
 * is gone once this one ends, and the next holder takes it over. rm is made to refuse the lock, as the kernel would.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

/** While true, rm refuses lock files. */
const folder = vi.hoisted(() => ({ readOnly: false }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>()
  return {
    ...fs,
    rm: (path: Parameters<typeof fs.rm>[0], options?: Parameters<typeof fs.rm>[1]) =>
      folder.readOnly && String(path).endsWith('.lock')
        ? Promise.reject(Object.assign(new Error(`ENOTDIR: not a directory, scandir '${path}'`), { code: 'ENOTDIR' }))
        : fs.rm(path, options),
  }
})

const { takeLock } = await import('../../../src/build/output/owner.js')

let dir: string
beforeEach(async () => {
  folder.readOnly = false
  dir = await mkdtemp(join(tmpdir(), 'site-owner-release-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const refuse = { held: (pid: number) => new Error(`held by ${pid}`), failed: (why: string) => new Error(why) }

describe('releasing a lock that cannot be removed', () => {
  it('resolves, and leaves a lock the next holder takes over', async () => {
    const file = join(dir, '.out-build.lock')
    const release = await takeLock(file, refuse)
    folder.readOnly = true
    await expect(release()).resolves.toBeUndefined()
    folder.readOnly = false
    expect(await readFile(file, 'utf8')).toMatch(new RegExp(`^${process.pid}\\n`))
    await expect(takeLock(file, refuse)).resolves.toBeTypeOf('function')
  })
})
