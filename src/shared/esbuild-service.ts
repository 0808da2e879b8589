/**
 * esbuild's service, a child process of 20-40 MB that esbuild starts in each thread that calls it and keeps
 * until the thread ends: a build's thread, its render workers and the CLI's thread each had one for their whole
 * life, though each bundles only at its start. Each use is counted; when a thread's last one ends, the service
 * stops (esbuild starts it again at the next call). A watch-mode bundler holds a use while its contexts live.
 * The count is per thread, as esbuild's service is.
 */
let uses = 0

/** Holds the service until the returned function is called (once). */
export function holdEsbuild(): () => Promise<void> {
  uses++
  let released = false
  return async () => {
    if (released) return
    released = true
    uses--
    // loaded on use: a build that finds its bundles cached never loads esbuild (see src/project/bundle-cache.ts)
    if (uses === 0) await (await import('esbuild')).stop()
  }
}

/** Runs a task that calls esbuild, then releases the service if no other use holds it. */
export async function withEsbuild<T>(task: () => Promise<T>): Promise<T> {
  const release = holdEsbuild()
  try {
    return await task()
  } finally {
    await release()
  }
}
