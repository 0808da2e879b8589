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
