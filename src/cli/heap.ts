/**
 * How much V8 lets a build's heap grow between two full garbage collections. By default V8 lets it
 * reach up to four times what was alive at the last one; a build allocates quickly (every page's
 * answer, render and files) while what stays alive is small, so its heap sat at about four times
 * its live data. Doubling instead took the peak RSS of a 30,000-page build from 313 to 236 MB at the
 * same CPU time (bench/incremental.mjs). `--heap-growing-percent` is V8's own flag for it; it is read
 * at every collection, so setting it as the command starts applies to the whole run, render workers
 * included. A value given with `node --heap-growing-percent=… bin/site.js` or in `NODE_OPTIONS` wins.
 */
import { setFlagsFromString } from 'node:v8'

/** The heap may grow to twice its live size between full collections. */
export const BUILD_HEAP_GROWING_PERCENT = 100

const FLAG = 'heap-growing-percent'

/** Node's own flags of this process: its command line (`process.execArgv`) and `NODE_OPTIONS`. */
export interface NodeFlags {
  execArgv: readonly string[]
  nodeOptions?: string
}

/** Sets the build's heap growing unless the user set it; returns whether it did. */
export function tuneHeapForBuild(
  { execArgv, nodeOptions = '' }: NodeFlags,
  setFlags: (flags: string) => void = setFlagsFromString,
): boolean {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) => arg.replaceAll('_', '-').includes(FLAG))
  if (given) return false
  setFlags(`--${FLAG}=${BUILD_HEAP_GROWING_PERCENT}`)
  return true
}
