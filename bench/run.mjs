// `npm run bench`: runs every benchmark part in turn and prints its figures (bench/README.md says what
// each measures). Each script can also be run alone (see its header for flags and env variables).
// BENCH_ONLY=start,latency runs a subset, by part or by script name; BENCH_ONLY=all adds the parts that
// run only on request (they are long: each builds the 30,000-page site again, or several sizes of it).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** Parts in run order, grouped by the script that measures them. */
const SCRIPTS = [
  { script: 'site', parts: ['site'] },
  { script: 'start', parts: ['start'] },
  { script: 'build', parts: ['latency', 'loop', 'threads'] },
  { script: 'incremental', parts: ['rss', 'only'], onRequest: ['unchanged', 'navigation'] },
  { script: 'scale', parts: [], onRequest: ['scale'] },
  { script: 'client-size', parts: ['client-size'] },
  { script: 'preview', parts: ['preview'] },
  { script: 'serve', parts: ['serve'] },
  { script: 'lighthouse', parts: ['lighthouse'] },
  { script: 'publish', parts: ['publish'] },
  { script: 'media', parts: ['media'] },
]

const only = process.env.BENCH_ONLY?.split(',')
  .map((s) => s.trim())
  .filter(Boolean)
const known = SCRIPTS.flatMap(({ script, parts, onRequest = [] }) => [script, ...parts, ...onRequest, 'all'])
const unknown = only?.filter((name) => !known.includes(name)) ?? []
if (unknown.length) {
  console.error(`BENCH_ONLY: unknown part ${unknown.join(', ')}; parts: ${[...new Set(known)].join(', ')}`)
  process.exit(2)
}

/** The parts of a script to run now: all its default ones, or those named (the script's name names its defaults). */
function partsOf({ script, parts, onRequest = [] }) {
  if (!only) return parts
  if (only.includes('all')) return [...parts, ...onRequest]
  const named = [...parts, ...onRequest].filter((part) => only.includes(part))
  return only.includes(script) ? [...new Set([...parts, ...named])] : named
}

let failed = 0
const started = performance.now()
for (const entry of SCRIPTS) {
  const parts = partsOf(entry)
  if (!parts.length) continue
  const file = fileURLToPath(new URL(`./${entry.script}.mjs`, import.meta.url))
  console.log(`\n=== bench/${entry.script}.mjs (${parts.join(', ')})`)
  const res = spawnSync(process.execPath, ['--expose-gc', file, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PARTS: parts.join(',') },
  })
  if (res.status !== 0) {
    failed++
    console.log(`bench/${entry.script}.mjs exited with ${res.status ?? res.signal}`)
  }
}
console.log(
  `\nbench: ${((performance.now() - started) / 60_000).toFixed(1)} min${failed ? `, ${failed} script(s) failed` : ''}`,
)
process.exitCode = failed ? 1 : 0
