// Load test of `site preview` over loopback against the demo API at latency 0:
// requests per second, p50/p99 latency, errors (must be 0), RSS before and after.
// Bounded: stops after DURATION_MS or MAX_REQUESTS, whichever comes first.
// Run after `node scripts/compile.mjs`:  node bench/preview.mjs [--duration 10] [--concurrency 16] [--json]
// Also importable: `runPreviewBench(options)` (bench/run.mjs may call it).
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Pool } from 'undici'

// What `site preview` runs with (runPreviewCommand sets the same default): React's production build.
process.env.NODE_ENV ||= 'production'

const root = fileURLToPath(new URL('..', import.meta.url))
const dist = (path) => import(pathToFileURL(`${root}dist/${path}`).href)

/** Demo pages the load rotates over (three locales, a deep page). */
export const BENCH_PATHS = ['/', '/about-us', '/services', '/services/cloud-migration', '/pl/o-nas', '/de/leistungen']
/** Target requests per second for a demo page at API latency 0. */
export const TARGET_RPS = 200

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0
const mb = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10

export async function runPreviewBench({
  durationMs = 10_000,
  maxRequests = 20_000,
  concurrency = 16,
  warmup = 200,
} = {}) {
  const [{ startDemoApi }, { resolveConfig }, { startPreviewServer }] = await Promise.all([
    dist('demo/server.js'),
    dist('config/load.js'),
    dist('preview/server.js'),
  ])
  const api = await startDemoApi({ port: 0, latencyMs: 0 })
  const inline = { root, apiBaseUrl: api.url }
  const config = await resolveConfig(inline)
  const server = await startPreviewServer({
    config,
    root,
    inline,
    host: '127.0.0.1',
    port: 0,
    watch: false,
    log: () => {},
  })
  const pool = new Pool(server.url, { connections: concurrency, pipelining: 1 })
  const errors = []
  const latencies = []
  let sent = 0

  const hit = async (path) => {
    const started = performance.now()
    try {
      const res = await pool.request({ path, method: 'GET', headers: { 'user-agent': 'site-bench' } })
      const body = await res.body.text()
      if (res.statusCode !== 200 || !body.includes('</html>')) errors.push(`${path}: HTTP ${res.statusCode}`)
    } catch (error) {
      errors.push(`${path}: ${error.message}`)
    }
    return performance.now() - started
  }

  try {
    for (let i = 0; i < warmup; i++) await hit(BENCH_PATHS[i % BENCH_PATHS.length])
    errors.length = 0
    globalThis.gc?.()
    const { rss: rssBefore, heapUsed: heapBefore } = process.memoryUsage()
    const started = performance.now()
    const deadline = started + durationMs
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline && sent < maxRequests) {
          const path = BENCH_PATHS[sent++ % BENCH_PATHS.length]
          latencies.push(await hit(path))
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    globalThis.gc?.()
    const { rss: rssAfter, heapUsed: heapAfter } = process.memoryUsage()
    latencies.sort((a, b) => a - b)
    return {
      requests: latencies.length,
      seconds: Math.round(seconds * 100) / 100,
      rps: Math.round(latencies.length / seconds),
      p50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
      p99Ms: Math.round(percentile(latencies, 99) * 10) / 10,
      errors: errors.length,
      firstErrors: errors.slice(0, 5),
      rssBeforeMb: mb(rssBefore),
      rssAfterMb: mb(rssAfter),
      heapBeforeMb: mb(heapBefore),
      heapAfterMb: mb(heapAfter),
      nodeEnv: process.env.NODE_ENV,
      concurrency,
      targetRps: TARGET_RPS,
    }
  } finally {
    await pool.close()
    await server.close()
    await api.close()
  }
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href
if (isMain) {
  const arg = (name, fallback) => {
    const at = process.argv.indexOf(`--${name}`)
    return at > 0 ? Number(process.argv[at + 1]) : fallback
  }
  const result = await runPreviewBench({
    durationMs: arg('duration', 10) * 1000,
    concurrency: arg('concurrency', 16),
    maxRequests: arg('requests', 20_000),
  })
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(result)}\n`)
  else {
    const lines = [
      `preview: ${result.requests} requests in ${result.seconds} s at concurrency ${result.concurrency}`,
      `  ${result.rps} req/s (target >= ${result.targetRps}), p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, errors ${result.errors}`,
      `  RSS ${result.rssBeforeMb} MB before, ${result.rssAfterMb} MB after (heap ${result.heapBeforeMb} -> ${result.heapAfterMb} MB; NODE_ENV=${result.nodeEnv})`,
      ...result.firstErrors.map((e) => `  error: ${e}`),
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
  }
  process.exitCode = result.errors === 0 && result.rps >= TARGET_RPS ? 0 : 1
}
