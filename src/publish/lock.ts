/**
 * One publisher a journal, and one an output folder. `publish.lock` in the journal's folder holds the process
 * id of the `site publish` that uses it: two publishers on one journal (a service and a second run by hand)
 * would each number their events on from the same last one and write over each other's lines. The output
 * folder's lock (beside it: outputLockFile) keeps a second publisher with a journal of its own, or a
 * `site build`, from replacing the folder between the publisher's builds: acknowledged edits would be lost;
 * nor does a publisher start over a folder a `site build` is writing.
 */
import { join } from 'node:path'
import { lockOutput } from '../build/output/output.js'
import { takeLock } from '../build/output/owner.js'
import { errors, messageOf } from '../errors.js'
import { makeFolders } from '../project/folders.js'
import { JOURNAL_FILE } from './journal.js'

export const LOCK_FILE = 'publish.lock'

/** Takes the lock of the journal in `dir` (made when missing); resolves to its release. */
export async function lockJournal(dir: string): Promise<() => Promise<void>> {
  const journal = join(dir, JOURNAL_FILE)
  await makeFolders(dir).catch((error: NodeJS.ErrnoException) => {
    // a --state naming a file (or a folder under one): said as such, not as mkdir's EEXIST
    const notFolder = error.code === 'EEXIST' || error.code === 'ENOTDIR'
    const why = notFolder ? `${dir} (or a folder above it) is a file, not a folder` : messageOf(error)
    throw errors.publishJournal(journal, `cannot be made: ${why}`, error)
  })
  return takeLock(join(dir, LOCK_FILE), {
    held: (pid) =>
      errors.publishJournal(
        journal,
        `is used by another site publish (process ${pid}): stop it, or give this one a --state folder of its own`,
      ),
    failed: (why, cause) => errors.publishJournal(journal, `cannot be locked (${why})`, cause),
  })
}

/** Takes the lock of the output folder `outDir` (its parent made when missing); resolves to its release. */
export const lockPublishOutput = (outDir: string): Promise<() => Promise<void>> =>
  lockOutput(outDir, 'publish', (other) =>
    other === 'publish'
      ? 'stop it, or give this one an output folder of its own'
      : 'wait for it to finish, or give this one an output folder of its own',
  )
