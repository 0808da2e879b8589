import { execFileSync, spawn } from 'node:child_process'
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isSiteError } from '../../../src/errors.js'
import { JOURNAL_FILE, type JournalEvent, openJournal, replayJournal } from '../../../src/publish/journal.js'
import { LOCK_FILE, lockJournal } from '../../../src/publish/lock.js'
import { addEvent, emptyPending, pendingEvents, settleBatch, takeBatch } from '../../../src/publish/pending.js'
import { PUBLISH_MAX_PENDING_PAGES, PUBLISH_MAX_QUEUED_APPENDS } from '../../../src/shared/constants.js'

const dirs: string[] = []
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'site-journal-'))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

describe('publish journal', () => {
  it('replays every event after the last done, across a reopen', async () => {
    const dir = await tempDir()
    const heard: JournalEvent[] = []
    const journal = await openJournal(dir, (e) => heard.push(e))
    const a = await journal.append({ at: 1, pages: ['12'] })
    await journal.append({ at: 2, full: true })
    await journal.markDone(a.seq)
    await journal.append({ at: 3, pages: ['/pl/o-nas'] })
    await journal.close()
    expect(heard.map((e) => e.seq)).toEqual([1, 2, 3])
    const again = await openJournal(dir, () => {})
    expect(again.recovered).toEqual([
      { seq: 2, at: 2, full: true },
      { seq: 3, at: 3, pages: ['/pl/o-nas'] },
    ])
    // numbering goes on after the recovered events
    expect((await again.append({ at: 4, pages: ['1'] })).seq).toBe(4)
    await again.close()
  })

  it('skips a torn last line (a write cut by a crash, never acknowledged)', async () => {
    const dir = await tempDir()
    const journal = await openJournal(dir, () => {})
    await journal.append({ at: 1, pages: ['12'] })
    await journal.close()
    await appendFile(join(dir, JOURNAL_FILE), '{"e":2,"at":2,"pag')
    expect(replayJournal(await readFile(join(dir, JOURNAL_FILE), 'utf8')).pending).toEqual([
      { seq: 1, at: 1, pages: ['12'] },
    ])
  })

  it('cuts a torn last line off at open, so the next acknowledged event is replayed', async () => {
    const dir = await tempDir()
    const journal = await openJournal(dir, () => {})
    await journal.append({ at: 1, pages: ['12'] })
    await journal.close()
    await appendFile(join(dir, JOURNAL_FILE), '{"e":2,"at":2,"pag')
    const again = await openJournal(dir, () => {})
    expect((await again.append({ at: 3, pages: ['7'] })).seq).toBe(2)
    await again.close()
    const third = await openJournal(dir, () => {})
    await third.close()
    expect(third.recovered).toEqual([
      { seq: 1, at: 1, pages: ['12'] },
      { seq: 2, at: 3, pages: ['7'] },
    ])
  })

  it('refuses a journal that is a link out of its folder, a FIFO or a folder, naming it, and writes nothing', async () => {
    const dir = await tempDir()
    const outside = join(await tempDir(), 'elsewhere.jsonl')
    await writeFile(outside, '{"e":1,"at":1,"pages":["9"]}\n')
    await symlink(outside, join(dir, JOURNAL_FILE))
    await expect(openJournal(dir, () => {})).rejects.toMatchObject({
      code: 'PUBLISH_JOURNAL',
      message: expect.stringContaining(`${join(dir, JOURNAL_FILE)} cannot be opened: it is a symbolic link`),
    })
    expect(await readFile(outside, 'utf8')).toBe('{"e":1,"at":1,"pages":["9"]}\n')
    await rm(join(dir, JOURNAL_FILE))
    execFileSync('mkfifo', [join(dir, JOURNAL_FILE)])
    await expect(openJournal(dir, () => {})).rejects.toMatchObject({
      code: 'PUBLISH_JOURNAL',
      message: expect.stringContaining('it is not a regular file'),
    })
    await rm(join(dir, JOURNAL_FILE))
    await mkdir(join(dir, JOURNAL_FILE))
    await expect(openJournal(dir, () => {})).rejects.toMatchObject({ code: 'PUBLISH_JOURNAL' })
  })

  it('skips sequence numbers it cannot have written, so later acknowledged events are replayed', async () => {
    for (const line of ['{"done":1e300}', `{"done":${2 ** 53}}`, `{"e":${2 ** 53},"at":1,"pages":["3"]}`]) {
      const dir = await tempDir()
      await writeFile(join(dir, JOURNAL_FILE), `{"e":1,"at":1,"pages":["12"]}\n${line}\n{"e":-4,"at":1,"full":1}\n`)
      const journal = await openJournal(dir, () => {})
      const a = await journal.append({ at: 2, pages: ['7'] })
      await journal.markDone(a.seq)
      const b = await journal.append({ at: 3, pages: ['8'] })
      await journal.close()
      const again = await openJournal(dir, () => {})
      await again.close()
      expect(b.seq).toBe(a.seq + 1)
      expect(again.recovered).toEqual([{ seq: b.seq, at: 3, pages: ['8'] }])
    }
  })

  it('compacts to the pending events only', async () => {
    const dir = await tempDir()
    const journal = await openJournal(dir, () => {})
    for (let i = 0; i < 50; i++) await journal.append({ at: i, pages: [String(i + 1)] })
    await journal.markDone(49)
    const before = journal.size()
    await journal.compact(() => [{ seq: 50, at: 49, pages: ['50'] }], 0)
    expect(journal.size()).toBeLessThan(before / 10)
    await journal.append({ at: 60, pages: ['7'] })
    await journal.close()
    const text = await readFile(join(dir, JOURNAL_FILE), 'utf8')
    expect(replayJournal(text).pending.map((e) => e.pages)).toEqual([['50'], ['7']])
  })

  it('compacts into a file of its own, whatever was left at its temporary name (a FIFO, a link)', async () => {
    const dir = await tempDir()
    const outside = join(await tempDir(), 'elsewhere.jsonl')
    await writeFile(outside, 'mine\n')
    const temp = join(dir, `${JOURNAL_FILE}.tmp`)
    for (const plant of [() => execFileSync('mkfifo', [temp]), () => symlink(outside, temp)]) {
      await plant()
      const journal = await openJournal(dir, () => {})
      const first = await journal.append({ at: 1, pages: ['1'] })
      await journal.markDone(first.seq)
      const pages = Array.from({ length: 100 }, (_, i) => String(i + 2))
      const second = await journal.append({ at: 2, pages })
      await journal.compact(() => [second], 0)
      await journal.close()
      expect((await stat(join(dir, JOURNAL_FILE))).isFile()).toBe(true)
      const text = await readFile(join(dir, JOURNAL_FILE), 'utf8')
      expect(replayJournal(text).pending.map((e) => e.pages)).toEqual([pages])
    }
    expect(await readFile(outside, 'utf8')).toBe('mine\n')
  })

  it('answers 429 once too many appends wait for the disk, and loses none it accepted', async () => {
    const dir = await tempDir()
    const journal = await openJournal(dir, () => {})
    const results = await Promise.allSettled(
      Array.from({ length: PUBLISH_MAX_QUEUED_APPENDS + 50 }, (_, i) => journal.append({ at: i, pages: ['1'] })),
    )
    const refused = results.filter((r) => r.status === 'rejected')
    expect(refused.length).toBeGreaterThan(0)
    for (const r of refused) expect(isSiteError(r.reason) && r.reason.status).toBe(429)
    const accepted = results.filter((r) => r.status === 'fulfilled').length
    await journal.close()
    expect(replayJournal(await readFile(join(dir, JOURNAL_FILE), 'utf8')).pending).toHaveLength(accepted)
  })
})

describe('pending batches', () => {
  const event = (seq: number, pages?: string[]): JournalEvent => ({
    seq,
    at: seq * 100,
    ...(pages ? { pages } : { full: true }),
  })

  it('merges events, and puts a failed batch back before newer ones', () => {
    const pending = emptyPending()
    addEvent(pending, event(1, ['12']))
    addEvent(pending, event(2, ['12', '14']))
    const batch = takeBatch(pending)!
    expect([...batch.pages]).toEqual(['12', '14'])
    expect(takeBatch(pending)).toBeUndefined()
    addEvent(pending, event(3, ['20']))
    settleBatch(pending, false)
    expect(pending.open).toMatchObject({ firstAt: 100, lastAt: 300, upTo: 3, events: 3 })
    expect(pendingEvents(pending)).toEqual([{ seq: 3, at: 100, pages: ['12', '14', '20'] }])
  })

  it('turns into a full build beyond the page cap, and stays bounded', () => {
    const pending = emptyPending()
    for (let i = 0; i <= PUBLISH_MAX_PENDING_PAGES; i++) addEvent(pending, event(i + 1, [String(i + 1)]))
    expect(pending.open).toMatchObject({ full: true })
    expect(pending.open!.pages.size).toBe(0)
    addEvent(pending, event(PUBLISH_MAX_PENDING_PAGES + 5, ['1']))
    expect(pending.open!.pages.size).toBe(0)
  })
})

describe('the journal lock', () => {
  it('refuses a folder in place of its lock file as PUBLISH_JOURNAL and leaves the folder as it was', async () => {
    const dir = await tempDir()
    await mkdir(join(dir, LOCK_FILE))
    await writeFile(join(dir, LOCK_FILE, 'mine.txt'), 'mine')
    await expect(lockJournal(dir)).rejects.toMatchObject({
      code: 'PUBLISH_JOURNAL',
      message: `The publish journal ${join(dir, JOURNAL_FILE)} cannot be locked (${join(dir, LOCK_FILE)} is a folder, not a lock file: remove it)`,
    })
    expect(await readFile(join(dir, LOCK_FILE, 'mine.txt'), 'utf8')).toBe('mine')
  })

  it('takes over the lock of a killed publisher whose process id another process has since (a reboot, a restart)', async () => {
    const dir = await tempDir()
    const lock = join(dir, LOCK_FILE)
    await lockJournal(dir) // not released: this publisher is killed
    // after a power cut and a reboot, the id the lock names is another running process's
    const other = spawn('sleep', ['60'], { stdio: 'ignore' })
    try {
      const taken = (await readFile(lock, 'utf8')).replace(/^\d+/, String(other.pid))
      await writeFile(lock, taken)
      const release = await lockJournal(dir)
      expect((await readFile(lock, 'utf8')).split('\n')[0]).toBe(String(process.pid))
      await release()
      // a lock naming only the running process (no start time to tell it by) is still its
      await writeFile(lock, `${other.pid}\n`)
      await expect(lockJournal(dir)).rejects.toMatchObject({
        code: 'PUBLISH_JOURNAL',
        message: expect.stringContaining(`is used by another site publish (process ${other.pid})`),
      })
    } finally {
      other.kill()
    }
  })
})
