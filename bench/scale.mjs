// Scale benchmark (issue 7): builds generated sites of growing size at latency 0
// and prints the time per page and peak RSS for each, so that a curve that is not
// flat, or memory that grows with the site, shows. Default sizes: 334, 1,000,
// 3,334 and 10,000 pages per locale (1,000 to 30,000 pages).
//
//   node bench/scale.mjs [--sizes 334,1000,3334,10000]   env: BENCH_SCALE_SIZES
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const flag = process.argv.indexOf('--sizes')
const sizes = (flag > 0 ? process.argv[flag + 1] : (process.env.BENCH_SCALE_SIZES ?? '334,1000,3334,10000'))
  .split(',')
  .map(Number)
const RSS_TARGET_MB = 250
const script = fileURLToPath(new URL('./build.mjs', import.meta.url))

// One folder for every size's output, removed at the end (see build.mjs on why not in between).
const workDir = mkdtempSync(join(tmpdir(), 'site-scale-'))
process.on('exit', () => rmSync(workDir, { recursive: true, force: true }))

const rows = []
for (const size of sizes) {
  const args = [script, '--pages', String(size), '--latency', '0', '--work-dir', workDir, '--json']
  const res = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 })
  if (res.status !== 0) {
    console.error(res.stderr)
    process.exit(1)
  }
  const [run] = JSON.parse(res.stdout)
  rows.push(run)
  console.log(
    `${String(run.pages).padStart(6)} pages  ${(run.wallMs / 1000).toFixed(1).padStart(6)} s  ${(run.wallMs / run.pages).toFixed(2).padStart(6)} ms/page` +
      `  render ${run.renderMsPerPage.toFixed(2)} ms/page  peak RSS ${run.peakRssMb} MB${run.peakRssMb > RSS_TARGET_MB ? ` (over ${RSS_TARGET_MB})` : ''}`,
  )
}
const first = rows[0]
const last = rows[rows.length - 1]
if (rows.length > 1) {
  const ratio = last.wallMs / last.pages / (first.wallMs / first.pages)
  console.log(`time per page at ${last.pages} pages / at ${first.pages} pages: ${ratio.toFixed(2)} (flat = about 1.0)`)
  console.log(`peak RSS at ${last.pages} pages: ${last.peakRssMb} MB (target under ${RSS_TARGET_MB} MB)`)
}
