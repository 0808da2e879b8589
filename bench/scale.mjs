#!/usr/bin/env node
// Scale (part `scale`, on request): `site build` of the generated site at growing sizes, latency 0, and
// the time per page and peak RSS of each, so that a curve that is not flat, or memory that grows with the
// site, shows. Default sizes: 334, 1,000, 3,334 and 10,000 pages a locale (1,000 to 30,000 pages).
//
//   node bench/scale.mjs [--sizes 334,1000,3334,10000]   env: BENCH_SCALE_SIZES
import { mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { MB, ROOT, runSiteBuild, scratchParent } from './lib/processes.mjs'

const RSS_TARGET_MB = 250
const { values } = parseArgs({
  strict: false,
  allowPositionals: true,
  options: { sizes: { type: 'string', default: process.env.BENCH_SCALE_SIZES ?? '334,1000,3334,10000' } },
})

const { startDemoApi } = await import(pathToFileURL(join(ROOT, 'dist/demo/server.js')).href)
const dir = await mkdtemp(join(await scratchParent(8192 * MB), 'site-bench-scale-'))
const rows = []
try {
  for (const pagesPerLocale of values.sizes.split(',').map(Number)) {
    const api = await startDemoApi({ port: 0, generate: { pagesPerLocale } })
    try {
      const out = join(dir, `out-${pagesPerLocale}`)
      const run = await runSiteBuild(['--api', api.url, '--out', out])
      await rm(out, { recursive: true, force: true })
      const pages = run.summary.pages.total
      const peakMb = Math.round(run.peakRssBytes / MB)
      rows.push({ pages, wallMs: run.wallMs, peakMb })
      console.log(
        `${String(pages).padStart(6)} pages  ${(run.wallMs / 1000).toFixed(1).padStart(6)} s  ${(run.wallMs / pages).toFixed(2).padStart(6)} ms/page  peak RSS ${peakMb} MB${peakMb > RSS_TARGET_MB ? ` (over ${RSS_TARGET_MB})` : ''}`,
      )
    } finally {
      await api.close()
    }
  }
} finally {
  await rm(dir, { recursive: true, force: true })
}
const [first, last] = [rows[0], rows.at(-1)]
if (rows.length > 1)
  console.log(
    `time per page at ${last.pages} pages / at ${first.pages} pages: ${(last.wallMs / last.pages / (first.wallMs / first.pages)).toFixed(2)} (flat = about 1.0; CLI start included)`,
  )
