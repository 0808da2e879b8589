#!/usr/bin/env node
// Incremental build benchmark (issue 12): a generated site of N pages per locale (default 10,000, so
// 30,000 pages) from the demo API at L ms latency (default 20). Every build is the real CLI
// (bin/site.js on the compiled dist/) in a child process, timed from spawn to exit (CLI start
// included), its peak RSS sampled from /proc. Each figure is printed with its target:
//
//   1. a full build with nothing changed since the last: 0 page files rewritten, output identical
//   2. --only one page uid (three locales) after that page changed: under 3 s
//   3. a navigation title changed (initial data of one locale, then of all three): every page of those
//      locales rendered again from kept data, no page request but for the named page and its linking ones: under 60 s
//   4. peak RSS under 250 MB in each
//   5. CPU per page at latency 0 within 1.5x of a bare reference loop (bench/reference-loop.mjs) over the same pages
//
//   node bench/incremental.mjs [--pages N] [--latency L] [--cpu-runs R] [--cpu-dir DIR] [--work-dir DIR] [--json]
//   env: BENCH_PAGES, BENCH_LATENCY_MS, BENCH_CPU_RUNS (build and loop pairs for 5, default 3),
//   BENCH_CPU_DIR (where they write; default /dev/shm when it has 4 GB free, else the work dir)
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, stat, statfs } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { sampleVmHwm } from './peak-rss.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const dist = (path) => pathToFileURL(join(ROOT, 'dist', path)).href
const MB = 1024 * 1024

const { values } = parseArgs({
  strict: false,
  allowPositionals: true,
  options: {
    pages: { type: 'string', default: process.env.BENCH_PAGES ?? '10000' },
    latency: { type: 'string', default: process.env.BENCH_LATENCY_MS ?? '20' },
    'work-dir': { type: 'string' },
    'cpu-runs': { type: 'string', default: process.env.BENCH_CPU_RUNS ?? '3' },
    'cpu-dir': { type: 'string', default: process.env.BENCH_CPU_DIR },
    json: { type: 'boolean', default: false },
    'cli-child': { type: 'string' },
  },
})

/** Child: the CLI in this process, then one `BENCH {…}` line on stderr with its CPU time and peak RSS. */
async function runCliChild(args) {
  const { run } = await import(dist('cli/index.js'))
  await run([process.execPath, 'site', ...args])
  const { user, system } = process.cpuUsage()
  const usage = { cpuMs: (user + system) / 1000, maxRssBytes: process.resourceUsage().maxRSS * 1024 }
  process.stderr.write(`\nBENCH ${JSON.stringify(usage)}\n`)
}

/** `site build …` in a child; resolves to its JSON summary, wall time, CPU time and peak RSS. */
export function runSiteBuild(args) {
  return new Promise((done, fail) => {
    const started = performance.now()
    const child = spawn(
      process.execPath,
      [fileURLToPath(import.meta.url), '--cli-child', JSON.stringify(['build', ...args, '--json', '--no-progress'])],
      { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production', CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const stopSampling = sampleVmHwm(child.pid)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', fail)
    child.on('close', (code) => {
      const wallMs = performance.now() - started
      const peak = stopSampling()
      const usage = /BENCH (\{.*\})/.exec(stderr)
      if (code !== 0 || !usage) return fail(new Error(`site build exited with ${code}: ${stderr.slice(-2000)}`))
      const { cpuMs, maxRssBytes } = JSON.parse(usage[1])
      const lines = stderr.split('\n').filter((line) => line.startsWith('--only'))
      done({ summary: JSON.parse(stdout), wallMs, cpuMs, peakRssBytes: Math.max(peak, maxRssBytes), lines })
    })
  })
}

/** Every file of a tree with its inode, size and modification time: unchanged ones were not touched. */
async function identities(dir) {
  const map = new Map()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    const info = await stat(path, { bigint: true })
    map.set(path, `${info.ino}:${info.size}:${info.mtimeNs}`)
  }
  return map
}

/**
 * Where the CPU row's builds and loops write: `--cpu-dir`, else /dev/shm (memory, on Linux) when it has
 * room for a build's output (about 2 GB at 30,000 pages; each is removed before the next run), else the work dir.
 */
async function cpuParent(workDir) {
  if (values['cpu-dir']) return values['cpu-dir']
  try {
    const fs = await statfs('/dev/shm')
    if (fs.bavail * fs.bsize >= CPU_DIR_MIN_FREE_BYTES) return '/dev/shm'
  } catch {}
  return workDir
}
const CPU_DIR_MIN_FREE_BYTES = 4 * 1024 * MB

/** Page requests (not initial data) the API got after `marker`, its latest request before a build (the log is capped). */
const pageRequests = (api, marker) =>
  api.requests.slice(api.requests.lastIndexOf(marker) + 1).filter((r) => r.query.type === undefined).length
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`
const mb = (bytes) => `${Math.round(bytes / MB)} MB`
const verdict = (ok) => (ok ? 'ok' : 'MISSED')

async function runBench() {
  const { startDemoApi } = await import(dist('demo/server.js'))
  const pagesPerLocale = Number(values.pages)
  const latencyMs = Number(values.latency)
  const workDir = values['work-dir'] ?? (await mkdtemp(join(tmpdir(), 'site-bench-incremental-')))
  const out = join(workDir, 'out')
  const report = []
  const line = (label, value) => {
    report.push({ label, value })
    if (!values.json) console.log(`  ${label.padEnd(50)}${value}`)
  }
  const api = await startDemoApi({ port: 0, latencyMs, generate: { pagesPerLocale } })
  const build = (...args) => runSiteBuild(['--api', api.url, '--out', out, ...args])
  try {
    if (!values.json)
      console.log(
        `incremental builds: ${pagesPerLocale} pages/locale x 3, API latency ${latencyMs} ms, ${cpus().length} CPU(s)`,
      )
    const first = await build()
    line(
      'first full build (no previous output)',
      `${seconds(first.wallMs)}, ${first.summary.pages.total} pages, peak RSS ${mb(first.peakRssBytes)}`,
    )

    // 1. nothing changed
    const before = await identities(out)
    const same = await build()
    const after = await identities(out)
    const touched = [...after].filter(([path, id]) => before.get(path) !== id).length + (before.size - after.size)
    const rewritten = same.summary.changes.pages.changed.length + same.summary.changes.pages.added.length
    line(
      '1. full build, nothing changed',
      `${seconds(same.wallMs)}, ${rewritten} page files rewritten, ${same.summary.filesWritten} files written, ${touched} of ${after.size} files touched, peak RSS ${mb(same.peakRssBytes)} (target: 0 rewritten, identical: ${verdict(rewritten === 0 && touched === 0)})`,
    )

    // 2. one page changed, --only its uid
    // a child page three fifths into the site (index i: `/section-<s>/page-<i>`, uid i + 1; see src/demo/generator-site.ts)
    const near = Math.floor(pagesPerLocale * 0.6)
    const index = (near - 1) % 50 === 0 ? near + 1 : near
    const section = Math.floor((index - 1) / 50) + 1
    const page = {
      uid: index + 1,
      paths: [
        `/section-${section}/page-${index}`,
        `/pl/dzial-${section}/strona-${index}`,
        `/de/bereich-${section}/seite-${index}`,
      ],
    }
    const pageEdits = page.paths.map((path) => ({ path, find: '"subtitle":""', replace: '"subtitle":"Updated"' }))
    api.setEdits(pageEdits)
    let from = api.requests.at(-1)
    const one = await build('--only', String(page.uid))
    line(
      `2. --only ${page.uid} (its page changed, 3 locales)`,
      `${seconds(one.wallMs)} with CLI start, ${pageRequests(api, from)} page requests, ${one.summary.changes.pages.changed.length} pages changed, ${one.summary.filesWritten} files written, peak RSS ${mb(one.peakRssBytes)} (target: under 3 s: ${verdict(one.wallMs < 3000)})`,
    )

    // 3. a navigation title changed (initial data only): in en, then in all three locales
    const entries = []
    for (const prefix of ['', '/pl', '/de'])
      entries.push({
        prefix,
        title: (await (await fetch(`${api.url}${prefix}/?type=834`)).json()).navigation[0].children[0].title,
      })
    const navEdit = ({ prefix, title }, mark) => ({
      path: prefix || '/',
      query: 'type=834',
      find: `"title":"${title}"`,
      replace: `"title":"${title} ${mark}"`,
    })
    const navRuns = []
    for (const [label, edits] of [
      ['en', [navEdit(entries[0], '*')]],
      ['en, pl, de', entries.map((entry) => navEdit(entry, '**'))],
    ]) {
      api.setEdits([...pageEdits, ...edits])
      from = api.requests.at(-1)
      const nav = await build('--only', '2')
      navRuns.push(nav)
      line(
        `3. navigation title changed (${label}), --only 2`,
        `${seconds(nav.wallMs)}, ${nav.summary.changes.pages.changed.length} pages rendered again (${nav.summary.only.rerenderedLocales.join(', ')}) with ${pageRequests(api, from)} page requests (page 2 and the pages linking to it: ${nav.summary.only.refetched.length}), peak RSS ${mb(nav.peakRssBytes)} (target: under 60 s: ${verdict(nav.wallMs < 60_000)})`,
      )
    }

    // 5. CPU per page at latency 0, against the bare reference loop over the same pages. What a disk charges
    // for creating folders and files drifts several-fold (after a large deletion both build and loop took
    // twice the CPU), so both write to memory (cpuDir) when they can, take turns, and the verdict is the
    // median of the pairs' ratios (each pair is printed).
    api.setLatency(0)
    api.setEdits([])
    // memory that a failed run must not leave taken: removed whatever happens
    const cpuDir = await mkdtemp(join(await cpuParent(workDir), 'site-bench-cpu-'))
    line('   where builds and loops write', cpuDir)
    const pairs = []
    const cpuBuilds = []
    let fixed
    try {
      const small = await startDemoApi({ port: 0, generate: { pagesPerLocale: 1 } })
      fixed = await runSiteBuild(['--api', small.url, '--out', join(cpuDir, 'fixed')])
      await small.close()
      const cpuOut = join(cpuDir, 'cpu')
      const loopOut = join(cpuDir, 'loop')
      let paths
      for (let run = 1; run <= Number(values['cpu-runs']); run++) {
        const build = await runSiteBuild(['--api', api.url, '--out', cpuOut])
        cpuBuilds.push(build)
        if (!paths) {
          // the build state (JSON Lines): a first line with the counts, then the paths, the pages' own first
          const [stateHead, ...lines] = (await readFile(join(cpuOut, '_site/builds/state.jsonl'), 'utf8')).split('\n')
          paths = lines.slice(0, JSON.parse(stateHead).pages).map((line) => JSON.parse(line))
        }
        await rm(cpuOut, { recursive: true, force: true })
        const loop = await runReferenceLoop({ apiUrl: api.url, outDir: loopOut, paths })
        await rm(loopOut, { recursive: true, force: true })
        const perPage = (build.cpuMs - fixed.cpuMs) / (build.summary.pages.total - fixed.summary.pages.total)
        const loopPerPage = loop.cpuMs / loop.pages
        pairs.push({ perPage, loopPerPage, ratio: perPage / loopPerPage })
        line(
          `   run ${run}: build, then reference loop`,
          `build ${seconds(build.wallMs)} wall, ${seconds(build.cpuMs)} CPU, ${build.summary.pages.total} pages, peak RSS ${mb(build.peakRssBytes)}; loop ${seconds(loop.wallMs)} wall, ${seconds(loop.cpuMs)} CPU, ${loop.pages} pages, peak RSS ${mb(loop.peakRssBytes)}: ${perPage.toFixed(2)} vs ${loopPerPage.toFixed(2)} ms a page, ${(perPage / loopPerPage).toFixed(2)}x`,
        )
      }
    } finally {
      await rm(cpuDir, { recursive: true, force: true })
    }
    line(
      '   fixed cost (3-page build)',
      `${seconds(fixed.wallMs)} wall, ${seconds(fixed.cpuMs)} CPU, peak RSS ${mb(fixed.peakRssBytes)}`,
    )
    // with an even count, the higher of the two middle ratios
    const median = [...pairs].sort((a, b) => a.ratio - b.ratio)[Math.floor(pairs.length / 2)]
    line(
      '5. CPU per page at latency 0 (median run)',
      `${median.perPage.toFixed(2)} ms (build, fixed cost taken out) vs ${median.loopPerPage.toFixed(2)} ms (loop): ${median.ratio.toFixed(2)}x; all runs ${pairs.map((pair) => `${pair.ratio.toFixed(2)}x`).join(', ')} (target: within 1.5x: ${verdict(median.ratio <= 1.5)})`,
    )
    const peaks = [first, same, one, ...navRuns, ...cpuBuilds].map((r) => r.peakRssBytes)
    line(
      '4. peak RSS, highest of the builds above',
      `${mb(Math.max(...peaks))} (target: under 250 MB: ${verdict(Math.max(...peaks) < 250 * MB)})`,
    )
  } finally {
    await api.close()
    if (!values['work-dir']) await rm(workDir, { recursive: true, force: true })
  }
  if (values.json) console.log(JSON.stringify(report, null, 2))
}

function runReferenceLoop(options) {
  return new Promise((done, fail) => {
    const started = performance.now()
    const child = spawn(process.execPath, [fileURLToPath(new URL('./reference-loop.mjs', import.meta.url))], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    const stopSampling = sampleVmHwm(child.pid)
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.on('error', fail)
    child.on('close', (code) => {
      const peak = stopSampling()
      if (code !== 0) return fail(new Error(`reference loop exited with ${code}`))
      const result = JSON.parse(stdout.trim().split('\n').pop())
      done({ ...result, wallMs: performance.now() - started, peakRssBytes: Math.max(peak, result.maxRssBytes) })
    })
    child.stdin.end(JSON.stringify(options))
  })
}

if (values['cli-child']) await runCliChild(JSON.parse(values['cli-child']))
else await runBench()
