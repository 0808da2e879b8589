#!/usr/bin/env node
// Fast start (part `start`): a one-shot `site build` of a small site (the demo API's hand-written
// content, about 54 pages, at latency 0) against a bare Node process that imports react-dom/server,
// renders one element and writes one file. Both are timed from spawn to exit; they take turns, after
// one unmeasured run of each (file cache), and the medians are compared. Target: at most 4x.
//
//   node bench/start.mjs [--runs R]   env: BENCH_START_RUNS (default 5)
import { mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { MB, mb, median, ROOT, runBareReact, runSiteBuild, scratchParent, seconds, verdict } from './lib/processes.mjs'

const TARGET_RATIO = 4

const { values } = parseArgs({
  strict: false,
  allowPositionals: true,
  options: { runs: { type: 'string', default: process.env.BENCH_START_RUNS ?? '5' } },
})

const { startDemoApi } = await import(pathToFileURL(join(ROOT, 'dist/demo/server.js')).href)
const api = await startDemoApi({ port: 0 })
const dir = await mkdtemp(join(await scratchParent(256 * MB), 'site-bench-start-'))
try {
  const builds = []
  const bares = []
  const runs = Number(values.runs)
  for (let run = 0; run <= runs; run++) {
    const build = await runSiteBuild(['--api', api.url, '--out', join(dir, `out-${run}`)])
    const bare = await runBareReact(join(dir, `bare-${run}.html`))
    if (run === 0) continue
    builds.push(build)
    bares.push(bare)
  }
  const pages = builds[0].summary.pages.total
  const buildMs = median(builds.map((b) => b.wallMs))
  const bareMs = median(bares.map((b) => b.wallMs))
  const ratio = buildMs / bareMs
  const line = (label, value) => console.log(`  ${label.padEnd(34)}${value}`)
  console.log(`fast start: ${runs} turns each, medians (after one unmeasured run of each)`)
  line(
    `site build, ${pages} pages, latency 0`,
    `${seconds(buildMs)} wall (runs ${builds.map((b) => seconds(b.wallMs)).join(', ')}), ${seconds(median(builds.map((b) => b.cpuMs)))} CPU, peak RSS ${mb(median(builds.map((b) => b.peakRssBytes)))}`,
  )
  line(
    'bare React process',
    `${seconds(bareMs)} wall (runs ${bares.map((b) => seconds(b.wallMs)).join(', ')}), peak RSS ${mb(median(bares.map((b) => b.peakRssBytes)))}`,
  )
  line('ratio', `${ratio.toFixed(2)}x (target: at most ${TARGET_RATIO}x: ${verdict(ratio <= TARGET_RATIO)})`)
} finally {
  await api.close()
  await rm(dir, { recursive: true, force: true })
}
