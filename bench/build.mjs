#!/usr/bin/env node
// Build benchmark (issue 4): the demo API serves a generated site of N pages per
// locale at a latency of L ms; `site build` runs in a child process (so that its
// peak RSS is its own) through the programmatic API on the compiled dist/.
//
//   node bench/build.mjs [--pages N[,N…]] [--latency L[,L…]] [--concurrency C] [--threads T] [--stub-render]
//                        [--work-dir DIR] [--json]
//   env: BENCH_PAGES, BENCH_LATENCY_MS, BENCH_CONCURRENCY, BENCH_RENDER_THREADS (default: build's own default)
//
// Defaults: 1,000 pages per locale at L = 20 ms and at L = 0 (the two targets of issue 4).
// Outputs are kept until every measurement is done (in --work-dir when given, which the
// caller then removes): on this machine's ext4 disk, deleting tens of thousands of
// files keeps the kernel busy for seconds afterwards, which would be charged to the
// next build measured.
//
// Prints pages, wall time, pages/s, the latency limit (pages x L / concurrency) and
// the ratio to it, time in render vs waiting on the API, and peak RSS. Needs
// `node scripts/compile.mjs` first (npm run bench does it). `--stub-render` swaps React
// rendering for a trivial document (the real prepare step stays), in the main thread:
// what the engine itself costs, apart from the templates.
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { sampleVmHwm } from './peak-rss.mjs'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const dist = (path) => pathToFileURL(join(ROOT, 'dist', path)).href
const LOCALES = 3
const MB = 1024 * 1024

// Not strict: bench/run.mjs hands every script the same arguments.
const { values } = parseArgs({
  strict: false,
  allowPositionals: true,
  options: {
    pages: { type: 'string', default: process.env.BENCH_PAGES ?? '1000' },
    latency: { type: 'string', default: process.env.BENCH_LATENCY_MS ?? '20,0' },
    'work-dir': { type: 'string' },
    concurrency: { type: 'string', default: process.env.BENCH_CONCURRENCY ?? '4' },
    threads: { type: 'string', default: process.env.BENCH_RENDER_THREADS },
    json: { type: 'boolean', default: false },
    'stub-render': { type: 'boolean', default: false },
    child: { type: 'string' },
  },
})

const numbers = (text, name) =>
  text.split(',').map((part) => {
    const n = Number(part)
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} takes whole numbers, got ${part}`)
    return n
  })

if (values.child) await runChild(JSON.parse(values.child))
else await runBench()

/** Child: one build, then one JSON line on stdout with the summary and the process's own peak RSS. */
async function runChild({ apiUrl, outDir, concurrency, renderThreads, stubRender }) {
  const [{ build }, { resolveSites }] = await Promise.all([
    import(dist('build/build.js')),
    import(dist('config/resolve.js')),
  ])
  const sites = resolveSites(
    { baseUrl: 'https://www.example.com' },
    { apiBaseUrl: apiUrl, outDir, concurrency },
    'bench',
  )
  const renderer = stubRender ? await createStubRenderer() : undefined
  const result = await build({
    config: { root: ROOT, configFile: 'bench', sites },
    site: sites[0],
    renderThreads,
    renderer,
  })
  const { pages, redirects, failures, bytesWritten, filesWritten, durationMs, timings } = result
  const summary = {
    pages: pages.total,
    redirects: redirects.length,
    failures,
    bytesWritten,
    filesWritten,
    durationMs,
    timings,
    renderThreads: renderThreads ?? 'default',
  }
  process.stdout.write(`${JSON.stringify({ ...summary, peakRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`)
}

/** The real prepare step, a trivial page render: the engine's own cost. */
async function createStubRenderer() {
  const { preparePage, prepareInitialData } = await import(dist('render/prepare.js'))
  return {
    preparePage,
    prepareInitialData,
    renderPage: (state) => ({
      appHtml: `<main>${state.page?.id ?? state.status}</main>`,
      head: [],
      htmlAttrs: { lang: state.locale, dir: 'ltr' },
      bodyAttrs: { class: '' },
      status: state.status,
      problems: [],
    }),
    renderDocument: ({ result, boot }) =>
      `<!doctype html><html lang="${result.htmlAttrs.lang}"><body>${result.appHtml}<script type="application/json">${JSON.stringify(boot)}</script></body></html>`,
  }
}

function runBuildChild(options) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', JSON.stringify(options)], {
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const stopSampling = sampleVmHwm(child.pid)
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.on('error', fail)
    child.on('close', (code) => {
      const sampledPeak = stopSampling()
      if (code !== 0) return fail(new Error(`build child exited with ${code}`))
      const summary = JSON.parse(stdout.trim().split('\n').pop())
      done({ ...summary, peakRssBytes: Math.max(summary.peakRssBytes, sampledPeak) })
    })
  })
}

async function measure({ api, workDir, pagesPerLocale, latencyMs, concurrency, renderThreads, stubRender }) {
  api.setLatency(latencyMs)
  const dir = await mkdtemp(join(workDir, 'build-'))
  const started = performance.now()
  const summary = await runBuildChild({
    apiUrl: api.url,
    outDir: join(dir, 'out'),
    concurrency,
    renderThreads,
    stubRender,
  })
  const processMs = performance.now() - started
  {
    const limitMs = (summary.pages * latencyMs) / concurrency
    return {
      pagesPerLocale,
      latencyMs,
      concurrency,
      renderThreads: stubRender ? 'none (stub render, main thread)' : summary.renderThreads,
      pages: summary.pages,
      redirects: summary.redirects,
      failures: summary.failures.length,
      wallMs: Math.round(summary.durationMs),
      processMs: Math.round(processMs),
      pagesPerSecond: Math.round((summary.pages * 1000) / summary.durationMs),
      latencyLimitMs: Math.round(limitMs),
      ratioToLimit: limitMs > 0 ? Number((limitMs / summary.durationMs).toFixed(3)) : null,
      renderMs: Math.round(summary.timings.renderMs),
      renderMsPerPage: Number((summary.timings.renderMs / summary.pages).toFixed(3)),
      apiWaitMs: Math.round(summary.timings.apiWaitMs),
      apiWaitMsPerRequest: Number((summary.timings.apiWaitMs / summary.pages).toFixed(2)),
      writeMs: Math.round(summary.timings.writeMs),
      peakRssMb: Math.round(summary.peakRssBytes / MB),
      outputMb: Math.round(summary.bytesWritten / MB),
      files: summary.filesWritten,
    }
  }
}

function print(r) {
  const line = (label, value) => console.log(`  ${label.padEnd(16)}${value}`)
  console.log(
    `\nsite build: ${r.pagesPerLocale} pages/locale x ${LOCALES} locales, latency ${r.latencyMs} ms, concurrency ${r.concurrency}, render threads ${r.renderThreads}`,
  )
  line('pages', `${r.pages} (+ ${r.redirects} redirects, ${r.failures} failures)`)
  line('wall time', `${(r.wallMs / 1000).toFixed(2)} s (process ${(r.processMs / 1000).toFixed(2)} s with start-up)`)
  line('pages/s', `${r.pagesPerSecond}`)
  if (r.latencyMs > 0) {
    line('latency limit', `${(r.latencyLimitMs / 1000).toFixed(2)} s (pages x L / concurrency)`)
    line('ratio', `${r.ratioToLimit} (limit / wall; target >= 0.9 at L = 20 ms)`)
  }
  line(
    'render',
    `${(r.renderMs / 1000).toFixed(2)} s in total, ${r.renderMsPerPage} ms/page (prepare + render + document + payload)`,
  )
  line('API wait', `${(r.apiWaitMs / 1000).toFixed(2)} s summed over requests, ${r.apiWaitMsPerRequest} ms/request`)
  line('write', `${(r.writeMs / 1000).toFixed(2)} s summed over pages (overlaps the rest)`)
  line('peak RSS', `${r.peakRssMb} MB`)
  line('output', `${r.outputMb} MB in ${r.files} files`)
}

async function runBench() {
  const { startDemoApi } = await import(dist('demo/server.js'))
  const concurrency = numbers(values.concurrency, 'concurrency')[0]
  const renderThreads = values.threads === undefined ? undefined : numbers(values.threads, 'threads')[0]
  const results = []
  if (!values.json) console.log(`build benchmark on ${cpus().length} CPU(s), Node ${process.version}`)
  const workDir = values['work-dir'] ?? (await mkdtemp(join(tmpdir(), 'site-bench-')))
  try {
    for (const pagesPerLocale of numbers(values.pages, 'pages')) {
      const api = await startDemoApi({ port: 0, generate: { pagesPerLocale } })
      try {
        for (const latencyMs of numbers(values.latency, 'latency')) {
          const result = await measure({
            api,
            workDir,
            pagesPerLocale,
            latencyMs,
            concurrency,
            renderThreads,
            stubRender: values['stub-render'],
          })
          results.push(result)
          if (!values.json) print(result)
        }
      } finally {
        await api.close()
      }
    }
  } finally {
    if (!values['work-dir']) await rm(workDir, { recursive: true, force: true })
  }
  if (values.json) console.log(JSON.stringify(results, null, 2))
}
