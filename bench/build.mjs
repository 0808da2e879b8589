#!/usr/bin/env node
// Full builds of the benchmark site: the demo API's generated site (`site demo-api --generate N`, default
// 1,000 pages a locale, 3,000 pages; see bench/site.mjs for its shape), every build timed from spawn to
// exit (start-up included). Parts (BENCH_PARTS, set by bench/run.mjs from BENCH_ONLY; default all):
//
//   latency  `site build` at 20 ms API latency: wall vs the latency floor (pages x latency / concurrency 4).
//            Target: at most 1.15x.
//   loop     `site build` at latency 0: wall vs bench/reference-loop.mjs (fetch, render the same templates,
//            write) over the same pages, in turns; median of the pairs. Target: at most 2x.
//   threads  one against two render threads, at latency 0 and 20 ms: wall of the same build with
//            `renderThreads` 1 and 2 (bench/lib/build-child.mjs: the CLI's set-up, the thread count chosen),
//            in turns, so that the default can be chosen by the figure.
//
//   node bench/build.mjs [--pages N] [--loop-runs R] [--thread-runs R]
//   env: BENCH_PAGES, BENCH_LOOP_RUNS (default 2), BENCH_THREAD_RUNS (default 1)
import { mkdtemp, rm } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import {
  builtPagePaths,
  MB,
  mb,
  median,
  ROOT,
  runReferenceLoop,
  runSiteBuild,
  runTimed,
  scratchParent,
  seconds,
  selectedParts,
  verdict,
} from './lib/processes.mjs'

const LATENCY_MS = 20
const CONCURRENCY = 4
const LATENCY_TARGET = 1.15
const LOOP_TARGET = 2

const { values } = parseArgs({
  strict: false,
  allowPositionals: true,
  options: {
    pages: { type: 'string', default: process.env.BENCH_PAGES ?? '1000' },
    'loop-runs': { type: 'string', default: process.env.BENCH_LOOP_RUNS ?? '2' },
    'thread-runs': { type: 'string', default: process.env.BENCH_THREAD_RUNS ?? '1' },
  },
})
const parts = selectedParts(['latency', 'loop', 'threads'])
const line = (label, value) => console.log(`  ${label.padEnd(50)}${value}`)

const { startDemoApi } = await import(pathToFileURL(join(ROOT, 'dist/demo/server.js')).href)
const pagesPerLocale = Number(values.pages)
const api = await startDemoApi({ port: 0, generate: { pagesPerLocale } })
// Outputs go to memory when it has room (about 400 MB a build at 3,000 pages), each removed once measured.
const dir = await mkdtemp(join(await scratchParent(4096 * MB), 'site-bench-build-'))
let runs = 0
const nextOut = () => join(dir, `out-${runs++}`)
const build = async (latencyMs) => {
  api.setLatency(latencyMs)
  const out = nextOut()
  const result = await runSiteBuild(['--api', api.url, '--out', out])
  return { ...result, out }
}
const describe = (b) =>
  `${seconds(b.wallMs)} wall, ${seconds(b.cpuMs)} CPU, ${b.summary.pages.total} pages, peak RSS ${mb(b.peakRssBytes)}`

try {
  console.log(
    `full builds of the generated site: ${pagesPerLocale} pages a locale x 3, concurrency ${CONCURRENCY}, ${availableParallelism()} CPUs, Node ${process.version}`,
  )
  if (parts.has('latency')) {
    const b = await build(LATENCY_MS)
    await rm(b.out, { recursive: true, force: true })
    const floorMs = (b.summary.pages.total * LATENCY_MS) / CONCURRENCY
    const ratio = b.wallMs / floorMs
    line(`latency ${LATENCY_MS} ms: site build (CLI start included)`, describe(b))
    line(
      '  vs the latency floor (pages x L / 4)',
      `${seconds(floorMs)}: ${ratio.toFixed(2)}x (target: at most ${LATENCY_TARGET}x: ${verdict(ratio <= LATENCY_TARGET)})`,
    )
  }
  if (parts.has('loop')) {
    const ratios = []
    for (let run = 1; run <= Number(values['loop-runs']); run++) {
      const b = await build(0)
      const paths = await builtPagePaths(b.out)
      await rm(b.out, { recursive: true, force: true })
      const loopOut = nextOut()
      const loop = await runReferenceLoop({ apiUrl: api.url, outDir: loopOut, paths })
      await rm(loopOut, { recursive: true, force: true })
      ratios.push(b.wallMs / loop.wallMs)
      line(`latency 0, run ${run}: site build`, describe(b))
      line(
        '  reference loop over the same pages',
        `${seconds(loop.wallMs)} wall, ${seconds(loop.cpuMs)} CPU in its loop, ${loop.pages} pages, peak RSS ${mb(loop.peakRssBytes)}: ${ratios.at(-1).toFixed(2)}x`,
      )
    }
    const ratio = median(ratios)
    line(
      'latency 0: build wall / loop wall (median)',
      `${ratio.toFixed(2)}x; runs ${ratios.map((r) => `${r.toFixed(2)}x`).join(', ')} (target: at most ${LOOP_TARGET}x: ${verdict(ratio <= LOOP_TARGET)})`,
    )
  }
  if (parts.has('threads')) await compareThreads()
} finally {
  await api.close()
  await rm(dir, { recursive: true, force: true })
}

/** One against two render threads at latency 0 and 20 ms, in turns (1, 2, then 2, 1 on the next run). */
async function compareThreads() {
  const child = fileURLToPath(new URL('./lib/build-child.mjs', import.meta.url))
  for (const latencyMs of [0, LATENCY_MS]) {
    api.setLatency(latencyMs)
    const walls = { 1: [], 2: [] }
    for (let run = 0; run < Number(values['thread-runs']); run++)
      for (const renderThreads of run % 2 ? [2, 1] : [1, 2]) {
        const outDir = nextOut()
        const res = await runTimed(child, [JSON.stringify({ apiBaseUrl: api.url, outDir, renderThreads })])
        await rm(outDir, { recursive: true, force: true })
        if (res.code !== 0) throw new Error(`build child exited with ${res.code}: ${res.stderr.slice(-2000)}`)
        const result = JSON.parse(res.stdout.trim().split('\n').pop())
        if (result.failures) throw new Error(`build with ${renderThreads} render threads: ${result.failures} failures`)
        walls[renderThreads].push(res.wallMs)
        line(
          `latency ${latencyMs} ms, ${renderThreads} render thread${renderThreads > 1 ? 's' : ''}`,
          `${seconds(res.wallMs)} wall, build ${seconds(result.durationMs)}, render ${seconds(result.timings.renderMs)} summed, ${result.pages} pages, peak RSS ${mb(res.peakRssBytes)}`,
        )
      }
    const [one, two] = [median(walls[1]), median(walls[2])]
    line(
      `latency ${latencyMs} ms: two render threads / one`,
      `${(two / one).toFixed(2)}x wall (${seconds(two)} vs ${seconds(one)}; below 1 means two are faster)`,
    )
  }
}
