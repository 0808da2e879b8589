// `site build` as the CLI runs it, but with a chosen count of render threads, which the CLI has no flag
// for: the CLI's heap flags (src/cli/heap.ts) in this process, the build in a worker thread with the
// CLI's young-generation cap (src/cli/build-host.ts), `build({ renderThreads })` there. One JSON line
// on stdout: pages, failures, the build's own duration and timings.
//
//   node bench/lib/build-child.mjs '{"apiBaseUrl":"…","outDir":"…","renderThreads":2}'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'

const dist = (path) => pathToFileURL(join(fileURLToPath(new URL('../..', import.meta.url)), 'dist', path)).href

if (isMainThread) {
  const [{ tuneHeapForBuild }, { BUILD_WORKER_YOUNG_GENERATION_MB }] = await Promise.all([
    import(dist('cli/heap.js')),
    import(dist('cli/build-host.js')),
  ])
  process.env.NODE_ENV ??= 'production'
  tuneHeapForBuild({ execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS })
  const worker = new Worker(fileURLToPath(import.meta.url), {
    workerData: JSON.parse(process.argv[2]),
    resourceLimits: { maxYoungGenerationSizeMb: BUILD_WORKER_YOUNG_GENERATION_MB },
  })
  worker.on('message', (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`)
    void worker.terminate()
  })
  worker.on('error', (error) => {
    console.error(error)
    process.exitCode = 1
  })
} else {
  const { apiBaseUrl, outDir, renderThreads } = workerData
  const { build, resolveConfig, selectSite } = await import(dist('index.js'))
  const config = await resolveConfig({ apiBaseUrl, outDir })
  const result = await build({ config, site: selectSite(config.sites), renderThreads })
  const { pages, failures, durationMs, timings } = result
  parentPort.postMessage({ pages: pages.total, failures: failures.length, durationMs, timings })
}
