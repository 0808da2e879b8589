// Memory benchmark of `site serve` (20 concurrent requests for a
// 100 MB file once took it to 2.1 GB): the static server runs in a child process on the
// compiled dist/, serves one large file to N concurrent clients over loopback, and
// reports its own peak RSS against the target. A printed figure, not a test.
//
//   node bench/serve.mjs [--size-mb 100] [--concurrency 20] [--target-mb 150] [--json]
//
// Prints the file size, wall time, throughput, the server's RSS once listening and
// its peak RSS (getrusage maxrss), and exits 1 when the peak is over the target or
// a client got a short or failed answer. Needs `node scripts/compile.mjs` first
// (npm run bench does it).
import { fork } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { get } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const MB = 1024 * 1024
const mb = (bytes) => Math.round((bytes / MB) * 10) / 10

/** Child mode: start the static server on `dir`, tell the parent its URL, answer RSS questions. */
async function runChild(dir) {
  const { startStaticServer } = await import(pathToFileURL(join(ROOT, 'dist/serve/server.js')).href)
  const server = await startStaticServer({ dir, host: '127.0.0.1', port: 0 })
  globalThis.gc?.()
  process.send({ url: server.url, rssBytes: process.memoryUsage().rss })
  process.on('message', async (message) => {
    if (message !== 'report') return
    // maxRSS is in kilobytes.
    process.send({ peakRssBytes: process.resourceUsage().maxRSS * 1024 })
    await server.close()
    process.disconnect()
  })
}

async function writeBigFile(file, bytes) {
  const out = createWriteStream(file)
  const chunk = Buffer.alloc(MB, 0x5a)
  for (let written = 0; written < bytes; written += chunk.length)
    if (!out.write(written + chunk.length <= bytes ? chunk : chunk.subarray(0, bytes - written)))
      await once(out, 'drain')
  out.end()
  await once(out, 'finish')
}

/** One client: GET the file, count the bytes, keep none of them. */
function download(url) {
  return new Promise((done) => {
    const req = get(url, { agent: false }, (res) => {
      let bytes = 0
      res.on('data', (chunk) => (bytes += chunk.length))
      res.on('end', () => done({ status: res.statusCode, bytes }))
      res.on('error', (error) => done({ status: res.statusCode, bytes, error: error.message }))
    })
    req.on('error', (error) => done({ status: 0, bytes: 0, error: error.message }))
  })
}

export async function runServeBench({ sizeMb = 100, concurrency = 20, targetMb = 150 } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'site-bench-serve-'))
  const child = fork(fileURLToPath(import.meta.url), ['--child', dir], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  try {
    const size = sizeMb * MB
    await writeBigFile(join(dir, 'video.bin'), size)
    const [{ url, rssBytes }] = await once(child, 'message')
    const started = performance.now()
    const results = await Promise.all(Array.from({ length: concurrency }, () => download(`${url}/video.bin`)))
    const seconds = (performance.now() - started) / 1000
    child.send('report')
    const [{ peakRssBytes }] = await once(child, 'message')
    const failures = results.filter((r) => r.status !== 200 || r.bytes !== size)
    return {
      sizeMb,
      concurrency,
      seconds: Math.round(seconds * 100) / 100,
      throughputMbPerS: Math.round((sizeMb * concurrency) / seconds),
      rssListeningMb: mb(rssBytes),
      peakRssMb: mb(peakRssBytes),
      targetMb,
      failures: failures.length,
      firstFailures: failures.slice(0, 3),
    }
  } finally {
    child.kill()
    await rm(dir, { recursive: true, force: true })
  }
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href
if (isMain && process.argv[2] === '--child') await runChild(process.argv[3])
else if (isMain) {
  const { values } = parseArgs({
    options: {
      'size-mb': { type: 'string', default: '100' },
      concurrency: { type: 'string', default: '20' },
      'target-mb': { type: 'string', default: '150' },
      json: { type: 'boolean', default: false },
    },
    strict: false,
  })
  const result = await runServeBench({
    sizeMb: Number(values['size-mb']),
    concurrency: Number(values.concurrency),
    targetMb: Number(values['target-mb']),
  })
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`)
  else
    process.stdout.write(
      `${[
        `serve: a ${result.sizeMb} MB file to ${result.concurrency} concurrent clients in ${result.seconds} s (${result.throughputMbPerS} MB/s)`,
        `  server RSS ${result.rssListeningMb} MB listening, peak ${result.peakRssMb} MB (target < ${result.targetMb} MB): ${result.peakRssMb < result.targetMb ? 'ok' : 'OVER TARGET'}`,
        `  failed or short answers: ${result.failures}`,
        ...result.firstFailures.map(
          (f) => `  failure: HTTP ${f.status}, ${f.bytes} bytes${f.error ? `, ${f.error}` : ''}`,
        ),
      ].join('\n')}\n`,
    )
  process.exitCode = result.failures === 0 && result.peakRssMb < result.targetMb ? 0 : 1
}
