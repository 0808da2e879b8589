// Peak RSS of a child process and the processes it starts (esbuild's service, the image process), for the
// benchmarks that run builds in their own processes.
import { writeFileSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'

/** The process's children, from every thread's list (a worker thread's children are listed under it). */
async function childrenOf(pid) {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [])
  const lists = await Promise.all(
    tasks.map((task) => readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')),
  )
  return lists.flatMap((list) => list.split(' ').filter(Boolean).map(Number))
}

/** RSS of a process and its descendants now, and the process's own peak (VmHWM), in bytes. */
export async function treeRss(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '')
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024
  const below = await Promise.all((await childrenOf(pid)).map(treeRss))
  return { rss: kb('VmRSS') + below.reduce((sum, child) => sum + child.rss, 0), hwm: kb('VmHWM') }
}

/**
 * Peak RSS of a running process with its descendants, from /proc (Linux), until it exits; call the result to
 * stop and read it. Summed over the processes every 50 ms, or the process's own peak (VmHWM) when higher.
 * `fromNow`: the peak of what follows only. VmHWM counts from the process's start, so it is first reset to the
 * process's RSS now (`/proc/<pid>/clear_refs`, value 5); where that is not allowed, the sampled sums alone count.
 */
export function sampleVmHwm(pid, { fromNow = false } = {}) {
  let useHwm = true
  if (fromNow) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5')
    } catch {
      useHwm = false
    }
  }
  let peak = 0
  const timer = setInterval(async () => {
    const { rss, hwm } = await treeRss(pid)
    peak = Math.max(peak, rss, useHwm ? hwm : 0)
  }, 50)
  return () => {
    clearInterval(timer)
    return peak
  }
}
