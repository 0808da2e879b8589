/**
 * Files a process owns while it runs: a build's temporary folder, a deploy's temporary file, and the locks
 * of `site publish` (its journal, its output folder), each naming the process.
 */
import { open, rm } from 'node:fs/promises'
import { readRegularFile } from '../../project/untrusted-file.js'

/**
 * Whether another process with this id runs on this machine. Files named after their process (a build's
 * temporary folder, a deploy's temporary file, the publisher's lock) are that process's while it runs;
 * this process's own id is never another's, and a process of another user counts.
 */
export function isOtherProcessRunning(pid: number): boolean {
  if (pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The process id a lock file names, or undefined when it names none (missing, torn, a link, anything else). */
async function holderOf(file: string): Promise<number | undefined> {
  const read = await readRegularFile(file, 64)
  const text = read.type === 'read' ? read.bytes.toString('utf8').trim() : ''
  return /^[1-9]\d{0,9}$/.test(text) ? Number(text) : undefined
}

/** The other running process a lock file names, if any: a lock of a process that is gone holds nothing. */
export async function lockHolder(file: string): Promise<number | undefined> {
  const holder = await holderOf(file)
  // this process's own id is its own lock, or one of an earlier life (a container's process ids repeat)
  return holder !== undefined && isOtherProcessRunning(holder) ? holder : undefined
}

/**
 * Takes the lock `file` (its content is this process's id; the file is untrusted), or throws what `held` makes
 * of the other running process that holds it, or what `failed` makes of an error; a lock whose process is gone
 * (a kill -9, a reboot) is taken over. Resolves to its release.
 */
export async function takeLock(
  file: string,
  refuse: { held: (pid: number) => Error; failed: (why: string, cause?: unknown) => Error },
): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600)
      await handle.writeFile(`${process.pid}\n`).finally(() => handle.close())
      return () => rm(file, { force: true })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'EEXIST') throw refuse.failed(code ?? (error as Error).message, error)
    }
    const holder = await lockHolder(file)
    if (holder !== undefined) throw refuse.held(holder)
    // a folder in its place is no lock of ours to remove (rm refuses it without `recursive`)
    await rm(file, { force: true }).catch((error: NodeJS.ErrnoException) => {
      throw refuse.failed(error.code ?? error.message, error)
    })
  }
  throw refuse.failed(`${file} came back as soon as it was removed`)
}
