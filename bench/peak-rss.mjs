// Peak RSS of a child process, for the benchmarks that run builds in their own processes.
import { readFile } from 'node:fs/promises'

/** Peak RSS of a running process from /proc (Linux), sampled until it exits; call the result to stop and read it. */
export function sampleVmHwm(pid) {
  let peak = 0
  const timer = setInterval(async () => {
    try {
      const match = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))
      if (match) peak = Math.max(peak, Number(match[1]) * 1024)
    } catch {}
  }, 50)
  return () => {
    clearInterval(timer)
    return peak
  }
}
