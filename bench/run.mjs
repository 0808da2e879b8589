// `npm run bench`: runs every benchmark script in turn and prints their figures.
// Each script can also be run alone (see its header for flags and env variables).
// BENCH_ONLY=build,client-size runs a subset.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const SCRIPTS = ['build', 'incremental', 'scale', 'client-size', 'preview', 'serve', 'lighthouse', 'media']
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim())
let failed = 0
for (const name of SCRIPTS) {
  if (only && !only.includes(name)) continue
  const file = fileURLToPath(new URL(`./${name}.mjs`, import.meta.url))
  if (!existsSync(file)) continue
  console.log(`\n=== bench/${name}.mjs`)
  const res = spawnSync(process.execPath, ['--expose-gc', file, ...process.argv.slice(2)], { stdio: 'inherit' })
  if (res.status !== 0) {
    failed++
    console.log(`bench/${name}.mjs exited with ${res.status ?? res.signal}`)
  }
}
process.exitCode = failed ? 1 : 0
