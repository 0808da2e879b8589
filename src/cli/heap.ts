/**
 * How V8 collects a build's garbage, in `site build` and in `site publish` (whose warm builder builds
 * again and again in its process). Both flags set here are read at every collection, so setting them
 * as the command starts applies to the whole run, render workers included. (Flags that V8 reads once,
 * when an isolate sets up its heap, such as concurrent marking or sweeping, may not be changed at run
 * time: doing so crashed the collector of the isolate already running.) A flag given with
 * `node --… bin/site.js` or in `NODE_OPTIONS` wins.
 *
 * - Heap growing: by default V8 lets a heap reach up to four times what was alive at the last full
 *   collection; a build allocates quickly (every page's answer, render and files) while what stays alive
 *   is small, so its heap sat at about four times its live data. Doubling instead took the peak RSS of a
 *   30,000-page build from 313 to 236 MB at the same CPU time (bench/incremental.mjs).
 * - Young-generation collections in one thread when the build's own threads (its thread and its render
 *   workers) take every CPU, as they do on two to five CPUs with the default render workers. V8 runs each
 *   scavenge as tasks on its helper threads; with no CPU to spare they only wait for each other. 30,000-page
 *   builds at API latency 0 on a 2-CPU machine took 2-8% less CPU and wall time with them off (three pairs
 *   alternated, 2026-11-26), at the same peak RSS.
 */
import { availableParallelism } from 'node:os'
import { setFlagsFromString } from 'node:v8'
import { defaultRenderThreads } from '../build/render-threads/threads.js'

/** The heap may grow to twice its live size between full collections. */
export const BUILD_HEAP_GROWING_PERCENT = 100

/**
 * True when the build's own threads, its thread and its render workers, take every CPU of a machine with
 * `cpus` of them. Example: 2 -> true, 5 -> true, 8 -> false.
 */
export const buildTakesEveryCpu = (cpus: number): boolean => defaultRenderThreads(cpus) + 1 >= cpus

/** Node's own flags of this process: its command line (`process.execArgv`) and `NODE_OPTIONS`. */
export interface NodeFlags {
  execArgv: readonly string[]
  nodeOptions?: string
}

/** Sets the build's V8 flags that the user did not set; returns those it set. */
export function tuneHeapForBuild(
  { execArgv, nodeOptions = '' }: NodeFlags,
  options: { setFlags?: (flags: string) => void; cpus?: number } = {},
): string[] {
  const { setFlags = setFlagsFromString, cpus = availableParallelism() } = options
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((arg) => arg.replaceAll('_', '-'))
  const wanted = [`--heap-growing-percent=${BUILD_HEAP_GROWING_PERCENT}`]
  if (buildTakesEveryCpu(cpus)) wanted.push('--no-parallel-scavenge')
  // a flag is the user's when they gave it in either form (`--parallel-scavenge`, `--no-parallel-scavenge`)
  const name = (flag: string) => flag.replace(/^--(no-)?/, '').replace(/=.*/, '')
  const set = wanted.filter((flag) => !given.some((arg) => name(arg) === name(flag)))
  for (const flag of set) setFlags(flag)
  return set
}
