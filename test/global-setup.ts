/**
 * Compiles src/ to dist/ before any test runs (esbuild, well under a second): render workers
 * and the `site` executable run the compiled engine, and must run the code under test, never
 * a dist/ left over from an earlier edit (issue 11).
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export default function compileEngine(): void {
  const script = fileURLToPath(new URL('../scripts/compile.mjs', import.meta.url))
  execFileSync(process.execPath, [script], { stdio: 'inherit' })
}
