/**
 * Compiles src/ to dist/ before any test runs, and again before each rerun of a watch session
 * (esbuild, well under a second): render workers and the `site` executable run the compiled
 * engine, and must run the code under test, never a dist/ left over from an earlier edit.
 *
 * In CI (`CI` set) the suite runs beside a CPU hog on one core, as on a machine busy with
 * something else: a test that assumes how fast the machine is fails there, not on a
 * newcomer's first run. `SITE_TEST_LOAD=N` sets the number of busy
 * cores anywhere (`0`: none).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import { CHROMIUM_PATH, hasChromium } from './e2e/helpers/chromium-path.js'

// Spins, and gives up when vitest is gone (its parent changes), so that no hog outlives a killed run.
const HOG_SOURCE = `const parent = process.ppid; for (;;) { for (let i = 0; i < 5e7; i++); if (process.ppid !== parent) process.exit(0) }`

/** Busy cores wanted: `SITE_TEST_LOAD`, else one in CI, else none. */
export function loadFromEnv(env: NodeJS.ProcessEnv): number {
  const wanted = env.SITE_TEST_LOAD
  if (wanted !== undefined && wanted !== '') {
    const n = Number(wanted)
    if (!Number.isInteger(n) || n < 0)
      throw new Error(`SITE_TEST_LOAD: expected a whole number of cores, got ${wanted}`)
    return n
  }
  return env.CI && env.CI !== 'false' && env.CI !== '0' ? 1 : 0
}

function startHogs(count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    // At normal priority: a niced hog would yield its core whenever the suite wants it, which a busy machine does not.
    spawn(process.execPath, ['-e', HOG_SOURCE], { stdio: 'ignore' }),
  )
}

const compile = (): void => {
  const script = fileURLToPath(new URL('../scripts/compile.mjs', import.meta.url))
  execFileSync(process.execPath, [script], { stdio: 'inherit' })
}

export default function setup(project: TestProject): () => void {
  compile()
  // A watch session reruns tests after an edit: compile again first, so that no rerun runs a stale dist/.
  project.onTestsRerun(compile)
  if (!hasChromium)
    console.warn(`global setup: no browser at ${CHROMIUM_PATH}: the browser tests are SKIPPED (set CHROMIUM_PATH)`)
  const hogs = startHogs(loadFromEnv(process.env))
  if (hogs.length > 0)
    console.log(`global setup: ${hogs.length} core(s) kept busy while the tests run (SITE_TEST_LOAD)`)
  return () => {
    for (const hog of hogs) hog.kill()
  }
}
