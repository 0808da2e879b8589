/**
 * Files a process owns while it runs: a build's temporary folder, a deploy's temporary file, and the locks
 * (the output folder's, taken by `site build`, `site deploy` and `site publish`; the publisher's journal's),
 * each naming the process.
 */

import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { link, open, rm } from 'node:fs/promises'
import { writingFailed } from '../../errors.js'
import { readRegularFile } from '../../project/untrusted-file.js'

/**
 * Whether another process with this id runs on this machine. Files named after their process (a build's
 * temporary folder, a deploy's temporary file, a lock) are that process's while it runs;
 * this process's own id is never another's, and a process of another user counts. A process that has exited but
 * that its parent has not reaped yet (a zombie, as a publisher killed with -9 is for a while) runs no more: it holds
 * no file, only its id.
 */
function isOtherProcessRunning(pid: number): boolean {
  if (pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return processStat(pid)?.[0] !== 'Z'
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The fields of /proc/PID/stat after the command (Linux), or undefined where they cannot be read: the process's
 * state first (the 3rd field), its start time at index 19 (the 22nd).
 */
function processStat(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // the command may hold spaces and parentheses: the fields start after its last ')'
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

/**
 * When process `pid` started, in clock ticks since the machine booted, or undefined where that cannot be read.
 * With its id it names one process: after a reboot or a container's restart, the id a lock names is soon another
 * process's, started later.
 */
const processStart = (pid: number): string | undefined => processStat(pid)?.[19]

/**
 * This process as the names of what it may leave behind carry it (a deploy's temporary files, a build's folders
 * beside OUT): its id, and when it started where that can be read (`4242-1234567`). isOtherProcessStillRunning
 * tells from the two whether the process that made such a name still runs.
 */
export const processTag = (): string =>
  [process.pid, processStart(process.pid)].filter((part) => part !== undefined).join('-')

/** The content of a lock this process takes: its id, and when it started (a line of its own). */
const lockText = (): string => `${process.pid}\n${processStart(process.pid) ?? ''}\n`

/**
 * The process a lock file names (its id, and when it started if the lock says so), or undefined when it names
 * none (missing, torn, a link, anything else).
 */
async function holderOf(file: string): Promise<{ pid: number; start?: string } | undefined> {
  const read = await readRegularFile(file, 64)
  const text = read.type === 'read' ? read.bytes.toString('utf8').trim() : ''
  const match = /^([1-9]\d{0,9})(?:\n(\d{1,20}))?$/.exec(text)
  return match ? { pid: Number(match[1]), start: match[2] } : undefined
}

/**
 * The other running process a lock file names, if any: a lock of a process that is gone holds nothing, nor does
 * one whose id another process has now (it started at another time than the lock says: a reboot, a restart).
 */
export async function lockHolder(file: string): Promise<number | undefined> {
  const holder = await holderOf(file)
  return holder !== undefined && isOtherProcessStillRunning(holder.pid, holder.start) ? holder.pid : undefined
}

/** Removes the lock `file` when it names this process (a run of it that was ended before it released the lock). */
export async function removeOwnLock(file: string): Promise<void> {
  if ((await holderOf(file))?.pid === process.pid) await rm(file, { force: true })
}

/**
 * Whether another process than this one runs with id `pid` and, when `start` says when the process that had it
 * started, is still that one. This process's own id is its own, or one of an earlier life (a container's process
 * ids repeat).
 */
export function isOtherProcessStillRunning(pid: number, start: string | undefined): boolean {
  if (!isOtherProcessRunning(pid)) return false
  const now = start === undefined ? undefined : processStart(pid)
  return now === undefined || now === start
}

/** Link errors of a file system without hard links (FAT, some network shares): the lock is made in place there. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'])

/**
 * Makes the lock `file` naming this process, or rejects with EEXIST when there is one. Written beside it, then linked
 * into place: another taker never reads it empty (as a lock that names no process, to be taken over).
 */
async function placeLock(file: string): Promise<void> {
  const write = async (path: string) => {
    const handle = await open(path, 'wx', 0o600)
    // a lock that names no process (a full disk took none of its bytes) would be the next run's to take over
    await handle
      .writeFile(lockText())
      .finally(() => handle.close())
      .catch(async (error: unknown) => {
        await rm(path, { force: true }).catch(() => {})
        throw writingFailed(file, error)
      })
  }
  const temp = `${file}.${randomBytes(6).toString('hex')}.lock`
  await write(temp)
  try {
    await link(temp, file)
  } catch (error) {
    if (!NO_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error
    await write(file)
  } finally {
    await rm(temp, { force: true }).catch(() => {})
  }
}

type Refuse = { held: (pid: number) => Error; failed: (why: string, cause?: unknown) => Error }

/**
 * Takes the lock `file` (its content is this process's id; the file is untrusted), or throws what `held` makes
 * of the other running process that holds it, or what `failed` makes of an error; a lock whose process is gone
 * (a kill -9, a reboot) is taken over. Resolves to its release, which never rejects.
 */
export const takeLock = (file: string, refuse: Refuse): Promise<() => Promise<void>> =>
  takeLockOver(file, refuse, removeStaleLock)

/**
 * Removes the lock `file`, which named no running process, under `<file>.takeover`: of several takers that found
 * it so (a lost CI runner's lock, two jobs started at once), one looks again and removes it, and the others are
 * refused, naming it. Two that each removed it would each take a lock of their own.
 */
async function removeStaleLock(file: string, refuse: Refuse): Promise<void> {
  // a guard left by a taker that was killed is removed as it is: two takers that both find it so are rarer still
  const release = await takeLockOver(`${file}.takeover`, refuse, removeLock)
  try {
    const holder = await lockHolder(file)
    if (holder !== undefined) throw refuse.held(holder)
    await removeLock(file, refuse)
  } finally {
    await release()
  }
}

async function removeLock(file: string, refuse: Refuse): Promise<void> {
  // a folder in its place is no lock of ours to remove (rm refuses it without `recursive`)
  await rm(file, { force: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_FS_EISDIR') {
      const why = `${file} is a folder, not a lock file: remove it`
      throw refuse.failed(why, new Error(why, { cause: error }))
    }
    throw refuse.failed(error.code ?? error.message, error)
  })
}

async function takeLockOver(
  file: string,
  refuse: Refuse,
  removeStale: (file: string, refuse: Refuse) => Promise<void>,
): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await placeLock(file)
      // a lock that cannot be removed (its folder made read-only) fails nothing: it names this process, which ends,
      // and the next holder takes it over; the run it held has its own outcome to report
      return () => rm(file, { force: true }).catch(() => {})
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'EEXIST') throw refuse.failed(code ?? (error as Error).message, error)
    }
    const holder = await lockHolder(file)
    if (holder !== undefined) throw refuse.held(holder)
    await removeStale(file, refuse)
  }
  throw refuse.failed(`${file} came back as soon as it was removed`)
}
