/**
 * Scheduled changes: the pages whose API answer said when it may change (TYPO3's `Cache-Control: max-age`
 * with `config.sendCacheHeaders`, shortened to the next start or stop time of a record on the page), and when.
 * The publisher asks for them again at that time, as if an editor had saved them. A time after the next
 * reconcile is not kept: the reconcile asks every page again and hears the time anew.
 *
 * Kept in memory and in `schedule.json` beside the journal (written after each publish, read at start as an
 * untrusted file: bounded, every entry checked), so that a restart keeps the times it was told.
 */
import { randomBytes } from 'node:crypto'
import { open, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { isOnlyItem } from '../build/incremental/reuse.js'
import type { BuildResult } from '../build/types.js'
import { readRegularFile } from '../project/untrusted-file.js'
import { MAX_RECHECK_MS, PUBLISH_MAX_SCHEDULED_PAGES } from '../shared/constants.js'
import { isRecord } from '../shared/values.js'

/** page path -> when to ask for it again (ms since the epoch) */
export type Schedule = Map<string, number>

const FILE = 'schedule.json'
/** Bytes of `schedule.json` read at most: its entries are a path (at most 2 KB) and a number. */
const MAX_FILE_BYTES = PUBLISH_MAX_SCHEDULED_PAGES * 2200 + 1024

/**
 * A build's answer times folded into the schedule: a build that asked every page replaces it; an `--only`
 * build replaces the entries of the pages it asked again. Times after `horizon` are dropped.
 */
export function updateSchedule(
  schedule: Schedule,
  build: { recheck: BuildResult['recheck']; refetched: readonly string[] },
  horizon: number,
): void {
  if (build.recheck.complete) schedule.clear()
  else for (const path of build.refetched) schedule.delete(path)
  for (const { path, at } of build.recheck.pages)
    if (at <= horizon && schedule.size < PUBLISH_MAX_SCHEDULED_PAGES) schedule.set(path, at)
}

/** The pages due by `now`, taken out of the schedule (at most `max`). */
export function takeDue(schedule: Schedule, now: number, max: number): string[] {
  const due: string[] = []
  for (const [path, at] of schedule) {
    if (at > now) continue
    schedule.delete(path)
    due.push(path)
    if (due.length === max) break
  }
  return due.sort()
}

/** The earliest time in the schedule. */
export function nextDue(schedule: Schedule): number | undefined {
  let next: number | undefined
  for (const at of schedule.values()) if (next === undefined || at < next) next = at
  return next
}

/** Writes the schedule beside the journal (a temporary file, synced, renamed over the old one). */
export async function saveSchedule(dir: string, schedule: Schedule): Promise<void> {
  const file = join(dir, FILE)
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`
  const handle = await open(temp, 'w', 0o600)
  try {
    await handle.writeFile(`${JSON.stringify({ version: 1, pages: Object.fromEntries(schedule) })}\n`)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temp, file)
}

/** The schedule a previous run saved; empty when there is none, or it is no regular file, too large or malformed. */
export async function loadSchedule(dir: string): Promise<Schedule> {
  const schedule: Schedule = new Map()
  const read = await readRegularFile(join(dir, FILE), MAX_FILE_BYTES)
  if (read.type === 'refused') return schedule
  let body: unknown
  try {
    body = JSON.parse(read.bytes.toString('utf8'))
  } catch {
    return schedule
  }
  if (!isRecord(body) || body.version !== 1 || !isRecord(body.pages)) return schedule
  // a time further off than any answer gives is none the publisher wrote (one past what a date holds stopped it)
  const latest = Date.now() + MAX_RECHECK_MS
  for (const [path, at] of Object.entries(body.pages)) {
    if (schedule.size === PUBLISH_MAX_SCHEDULED_PAGES) break
    if (
      path.startsWith('/') &&
      isOnlyItem(path) &&
      Number.isSafeInteger(at) &&
      (at as number) > 0 &&
      (at as number) <= latest
    )
      schedule.set(path, at as number)
  }
  return schedule
}
