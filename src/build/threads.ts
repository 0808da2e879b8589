/**
 * How many threads a build renders in by default. Apart from run.ts so that the CLI's main thread can
 * ask (src/cli/heap.ts) without loading the build.
 */

/**
 * Render workers by default: one per CPU but one (the build's thread reads API
 * answers and writes files), at least one, at most this many (each worker holds
 * its own React and templates, ~40 MB).
 */
export const RENDER_THREADS_MAX = 4

/** Render workers by default on a machine with `cpus` CPUs. Example: 1 -> 1, 2 -> 1, 4 -> 3, 16 -> 4. */
export const defaultRenderThreads = (cpus: number): number => Math.max(1, Math.min(cpus - 1, RENDER_THREADS_MAX))
