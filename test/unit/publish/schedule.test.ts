import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadSchedule, nextDue, saveSchedule, takeDue, updateSchedule } from '../../../src/publish/schedule.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-schedule-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('scheduled re-checks', () => {
  it("takes a build's times: a full build replaces them, an --only build those of the pages it asked", () => {
    const schedule = new Map([
      ['/a', 100],
      ['/b', 200],
    ])
    updateSchedule(schedule, { recheck: { complete: false, pages: [{ path: '/c', at: 50 }] }, refetched: ['/a'] }, 1000)
    expect([...schedule]).toEqual([
      ['/b', 200],
      ['/c', 50],
    ])
    // a time after the horizon (the next reconcile) is not kept
    updateSchedule(
      schedule,
      {
        recheck: {
          complete: true,
          pages: [
            { path: '/d', at: 900 },
            { path: '/e', at: 5000 },
          ],
        },
        refetched: [],
      },
      1000,
    )
    expect([...schedule]).toEqual([['/d', 900]])
    expect(nextDue(schedule)).toBe(900)
  })

  it('hands out the pages due, at most so many, and leaves the rest', () => {
    const schedule = new Map([
      ['/b', 10],
      ['/a', 20],
      ['/later', 99],
      ['/c', 30],
    ])
    expect(takeDue(schedule, 50, 2)).toEqual(['/a', '/b'])
    expect(takeDue(schedule, 50, 10)).toEqual(['/c'])
    expect([...schedule.keys()]).toEqual(['/later'])
    expect(nextDue(new Map())).toBeUndefined()
  })

  it('keeps the schedule between runs, and reads a damaged or planted file as none', async () => {
    const schedule = new Map([
      ['/pl/o-nas', 1_800_000_000_000],
      ['/a', 1_800_000_001_000],
    ])
    await saveSchedule(dir, schedule)
    expect(await loadSchedule(dir)).toEqual(schedule)
    const file = join(dir, 'schedule.json')
    const hostile = {
      version: 1,
      pages: { '/ok': 5, 'no-slash': 5, '/a/../b': 5, '/x': 'soon', '/y': -1, 'file:/a.jpg': 5 },
    }
    await writeFile(file, JSON.stringify(hostile))
    expect([...(await loadSchedule(dir))]).toEqual([['/ok', 5]])
    // a time further off than any answer gives (a year) is no time the publisher wrote; one past what a date can
    // hold stopped the publisher at start ("Invalid time value")
    const far = {
      version: 1,
      pages: { '/ok': 5, '/beyond-dates': 9e15, '/in-two-years': Date.now() + 2 * 365 * 86_400_000 },
    }
    await writeFile(file, JSON.stringify(far))
    expect([...(await loadSchedule(dir))]).toEqual([['/ok', 5]])
    await writeFile(file, '{"version":1,')
    expect((await loadSchedule(dir)).size).toBe(0)
    await rm(file)
    await symlink('/etc/passwd', file)
    expect((await loadSchedule(dir)).size).toBe(0)
    await rm(file)
    expect((await loadSchedule(join(dir, 'none'))).size).toBe(0)
  })
})
