/**
 * One publisher a journal: `publish.lock` in the journal's folder holds the process id of the `site publish`
 * that uses it. Two publishers on one journal (a service and a second run by hand) would each number their
 * events on from the same last one and write over each other's lines: acknowledged edits would be lost.
 * A lock whose process is gone (a kill -9, a reboot) is taken over; the file is untrusted, as the journal is.
 */
import { mkdir, open, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { isOtherProcessRunning } from '../build/output/owner.js'
import { errors } from '../errors.js'
import { readRegularFile } from '../project/untrusted-file.js'
import { JOURNAL_FILE } from './journal.js'

export const LOCK_FILE = 'publish.lock'

/** The process id a lock file names, or undefined when it names none (torn, a link, anything else). */
async function holderOf(file: string): Promise<number | undefined> {
  const read = await readRegularFile(file, 64)
  const text = read.type === 'read' ? read.bytes.toString('utf8').trim() : ''
  return /^[1-9]\d{0,9}$/.test(text) ? Number(text) : undefined
}

/** Takes the lock of the journal in `dir` (made when missing); resolves to its release. */
export async function lockJournal(dir: string): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true })
  const file = join(dir, LOCK_FILE)
  const journal = join(dir, JOURNAL_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600)
      await handle.writeFile(`${process.pid}\n`).finally(() => handle.close())
      return () => rm(file, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw errors.publishJournal(journal, `cannot be locked (${messageOfCode(error)})`, error)
    }
    const holder = await holderOf(file)
    // this process's own id is a lock of an earlier life (a container's process ids repeat)
    if (holder !== undefined && isOtherProcessRunning(holder))
      throw errors.publishJournal(
        journal,
        `is used by another site publish (process ${holder}): stop it, or give this one a --state folder of its own`,
      )
    await rm(file, { force: true })
  }
  throw errors.publishJournal(journal, `cannot be locked (${file} came back as soon as it was removed)`)
}

const messageOfCode = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? (error as Error).message
