/**
 * How many threads a build renders in by default. Apart from run.ts so that the CLI's main thread can
 * ask (src/cli/heap.ts) without loading the build.
 */

import { RENDER_THREADS_MAX } from '../../shared/constants.js'

export { RENDER_THREADS_MAX }

/** Render workers by default on a machine with `cpus` CPUs. Example: 1 -> 1, 2 -> 1, 4 -> 3, 16 -> 4. */
export const defaultRenderThreads = (cpus: number): number => Math.max(1, Math.min(cpus - 1, RENDER_THREADS_MAX))
