/**
 * A compaction whose folder sync fails once the compacted journal has been renamed into place (an I/O error of
 * the disk: injected, as no file system makes one on demand). Appends that follow must go to the journal a
 * restart reads.
 */
import type * as FsPromises from 'node:fs/promises'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { JOURNAL_FILE, openJournal, replayJournal } from '../../../src/publish/journal.js'

/** The folder whose opening for its sync fails. */
const failing = vi.hoisted(() => ({ folder: '' }))

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>()
  const open: typeof real.open = (path, flags, mode) =>
    path === failing.folder && flags === 'r'
      ? Promise.reject(Object.assign(new Error(`EIO: i/o error, open '${path}'`), { code: 'EIO' }))
      : real.open(path, flags, mode)
  return { ...real, default: { ...real, open }, open }
})

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

describe('publish journal, a folder sync that fails after a compaction', () => {
  it('appends to the compacted journal, so that a restart replays what was acknowledged after it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-journal-sync-'))
    dirs.push(dir)
    const journal = await openJournal(dir, () => {})
    for (let i = 0; i < 20; i++) await journal.append({ at: i, pages: [String(i + 1)] })
    await journal.markDone(20)
    failing.folder = dir
    await expect(journal.compact(() => [], 0)).rejects.toThrow('EIO')
    failing.folder = ''
    const acknowledged = await journal.append({ at: 30, pages: ['/after-the-compaction'] })
    await journal.close()
    const replayed = replayJournal(await readFile(join(dir, JOURNAL_FILE), 'utf8'))
    expect(replayed.pending).toEqual([acknowledged])
    const again = await openJournal(dir, () => {})
    expect(again.recovered).toEqual([acknowledged])
    await again.close()
  })
})
