// Media (`media: 'optimize'`): the demo API's photographs mode (4000x2667 JPEGs, ETag and Last-Modified).
// 1. First build of a site with MEDIA_PHOTOS photographs (3 per page): media time per photograph, variant bytes
//    against the original. 2. A rebuild with nothing changed: file requests, bodies sent (none wanted), encodes
//    (none wanted), files of the output that changed (none wanted). 3. Lighthouse mobile performance and LCP of
//    /photos/1 with 'optimize' and with 'link'. 4. Peak RSS of `site build` (its own process) with MEDIA_RSS_PHOTOS
//    photographs (target under 400 MB).
// Needs `npm run compile` first (npm run bench does it). The photographs are generated once into the system's
// temporary folder (minutes for 200 of them), then reused.
// Env: MEDIA_PHOTOS=3, MEDIA_RSS_PHOTOS=200 (0: skip), MEDIA_LIGHTHOUSE=1 (0: skip), LIGHTHOUSE_RUNS=1.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import lighthouse from 'lighthouse'
import { startDemoApi } from '../dist/demo/server.js'
import { startStaticServer } from '../dist/serve/server.js'
import { launchChromium } from './chromium.mjs'
import { sampleVmHwm } from './peak-rss.mjs'

const photos = Number(process.env.MEDIA_PHOTOS ?? 3)
const rssPhotos = Number(process.env.MEDIA_RSS_PHOTOS ?? 200)
const withLighthouse = process.env.MEDIA_LIGHTHOUSE !== '0'
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1))
const RSS_TARGET_MB = 400
const root = fileURLToPath(new URL('..', import.meta.url))
const bin = join(root, 'bin/site.js')
const temp = await mkdtemp(join(tmpdir(), 'site-bench-media-'))
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`

/** `site build` in its own process: its JSON summary, wall time and peak RSS. */
function siteBuild(apiUrl, outDir, media) {
  return new Promise((done, fail) => {
    const started = performance.now()
    const args = [bin, 'build', '--api', apiUrl, '--out', outDir, '--json', '--no-progress', '--media', media]
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const stop = sampleVmHwm(child.pid)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => {
      stdout += chunk
    })
    child.stderr.on('data', (chunk) => {
      stderr += chunk
    })
    child.on('error', fail)
    child.on('close', (code) => {
      const peak = stop()
      try {
        const summary = JSON.parse(stdout)
        if (code !== 0) throw new Error(`exit ${code}: ${JSON.stringify(summary.failures).slice(0, 500)}`)
        done({ summary, ms: performance.now() - started, peak })
      } catch (error) {
        fail(new Error(`site build (${media}) failed: ${error.message}\n${stderr.slice(-2000)}`))
      }
    })
  })
}

/** Every file of an output: relative path -> SHA-256. */
async function hashTree(dir) {
  const files = new Map()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    files.set(
      relative(dir, path),
      createHash('sha256')
        .update(await readFile(path))
        .digest('hex'),
    )
  }
  return files
}

async function firstAndRebuild() {
  const api = await startDemoApi({ photos: { count: photos }, port: 0 })
  const out = join(temp, 'optimize')
  try {
    const first = await siteBuild(api.url, out, 'optimize')
    const { media } = first.summary
    console.log(
      `first build, ${photos} photographs (4000x2667 JPEG): ${(first.ms / 1000).toFixed(1)} s wall, peak RSS ${mb(first.peak)}`,
    )
    console.log(
      `  media: ${media.files} files, ${media.encodedImages} images encoded, ${media.variantsWritten} variants`,
    )
    console.log(
      `  encode time per photograph: ${(media.encodeMs / Math.max(1, media.encodedImages) / 1000).toFixed(2)} s`,
    )
    const record = JSON.parse(await readFile(join(out, '_site/builds/media.json'), 'utf8'))
    const shots = record.entries.filter((entry) => entry.url.includes('/fileadmin/photos/'))
    for (const entry of shots.slice(0, 3)) {
      const dir = join(out, '_site/media', entry.hash)
      const names = await readdir(dir)
      const sizes = Object.fromEntries(await Promise.all(names.map(async (n) => [n, (await stat(join(dir, n))).size])))
      const variants = names.filter((n) => n !== entry.name)
      const total = variants.reduce((sum, n) => sum + sizes[n], 0)
      const pick = (suffix) => variants.find((n) => n.endsWith(suffix))
      const mobile = pick('-800w.avif')
      const widest = pick(`-${Math.max(...entry.variants.widths)}w.avif`)
      console.log(
        `  ${entry.name}: original ${kb(entry.size)}; 800w AVIF ${kb(sizes[mobile])} (${((100 * sizes[mobile]) / entry.size).toFixed(1)}%), ` +
          `widest AVIF ${kb(sizes[widest])}, all ${variants.length} variants ${kb(total)} (${((100 * total) / entry.size).toFixed(0)}%)`,
      )
    }
    const before = await hashTree(out)
    const from = api.requests.length
    const again = await siteBuild(api.url, out, 'optimize')
    const files = api.requests.slice(from).filter((r) => r.path.startsWith('/fileadmin/'))
    const conditional = files.filter((r) => r.headers['if-none-match'] || r.headers['if-modified-since']).length
    const after = await hashTree(out)
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p))
    const m = again.summary.media
    console.log(`rebuild, nothing changed: ${(again.ms / 1000).toFixed(1)} s wall`)
    console.log(
      `  file requests ${files.length} (${conditional} conditional), bodies received ${m.fetched}, answered 304: ${m.notModified}`,
    )
    console.log(`  images encoded ${m.encodedImages}, variants written ${m.variantsWritten}`)
    console.log(
      `  output files changed: ${changed.length}${changed.length ? ` (${changed.slice(0, 5).join(', ')})` : ' (byte-identical)'}`,
    )
    return out
  } finally {
    await api.close()
  }
}

async function lighthouseBoth(optimized) {
  const api = await startDemoApi({ photos: { count: 3 }, port: 0 })
  const linked = join(temp, 'link')
  const chrome = await launchChromium()
  const servers = []
  try {
    await siteBuild(api.url, linked, 'link')
    for (const [name, dir] of [
      ['optimize', optimized],
      ['link', linked],
    ]) {
      const server = await startStaticServer({ dir, host: '127.0.0.1', port: 0 })
      servers.push(server)
      const scores = []
      for (let i = 0; i < runs; i++) {
        const { lhr } = await lighthouse(`${server.url}/photos/1`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance'],
        })
        scores.push({
          score: Math.round(lhr.categories.performance.score * 100),
          lcp: lhr.audits['largest-contentful-paint'].displayValue,
          bytes: lhr.audits['total-byte-weight'].numericValue,
          // the other metrics of the score, to tell what holds it below 100
          rest: ['first-contentful-paint', 'speed-index', 'total-blocking-time', 'cumulative-layout-shift']
            .map((id) => `${lhr.audits[id].title} ${lhr.audits[id].displayValue}`)
            .join(', '),
        })
      }
      const worst = scores.reduce((a, b) => (a.score <= b.score ? a : b))
      console.log(
        `lighthouse mobile /photos/1 with '${name}': performance ${worst.score}, LCP ${worst.lcp}, transferred ${mb(worst.bytes)} (lowest of ${runs}; ${worst.rest})`,
      )
    }
  } finally {
    for (const server of servers) await server.close()
    await chrome.kill()
    await api.close()
  }
}

async function peakRss() {
  const started = performance.now()
  const api = await startDemoApi({ photos: { count: rssPhotos }, port: 0 })
  console.log(`(${rssPhotos} photographs ready in ${((performance.now() - started) / 1000).toFixed(0)} s)`)
  try {
    const result = await siteBuild(api.url, join(temp, 'rss'), 'optimize')
    const verdict = result.peak < RSS_TARGET_MB * 1024 * 1024 ? 'under' : 'OVER'
    console.log(
      `peak RSS, site build with ${rssPhotos} photographs (with its image process): ${mb(result.peak)} (${verdict} the ${RSS_TARGET_MB} MB target), ` +
        `${(result.ms / 1000).toFixed(0)} s wall, ${result.summary.media.encodedImages} images encoded`,
    )
  } finally {
    await api.close()
  }
}

try {
  const optimized = await firstAndRebuild()
  if (withLighthouse) await lighthouseBoth(optimized)
  if (rssPhotos > 0) await peakRss()
} finally {
  await rm(temp, { recursive: true, force: true })
}
