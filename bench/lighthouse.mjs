// Lighthouse (mobile preset, simulated throttling) driving Debian's Chromium, on the output served
// by `site serve` as a static host serves it (compressed, hashed assets cached for a year): the demo
// home page and a content page, and pages of a generated site with every kind of content.
// Each page is measured LIGHTHOUSE_RUNS times; it prints each category's lowest and median score,
// the metrics of the lowest performance run and the audits that cost points, against the target of 100.
// Needs `npm run compile` first (npm run bench does it).
// Env: LIGHTHOUSE_PAGES="/,/services" (demo pages), LIGHTHOUSE_GENERATED="/,/section-1/page-4,/pl/dzial-1"
// (generated pages; empty for none), LIGHTHOUSE_RUNS=3.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import lighthouse from 'lighthouse'
import { build } from '../dist/build/build.js'
import { resolveConfig } from '../dist/config/load.js'
import { selectSite } from '../dist/config/resolve.js'
import { startDemoApi } from '../dist/demo/server.js'
import { startStaticServer } from '../dist/serve/server.js'
import { launchChromium } from './chromium.mjs'

const TARGET = 100
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['speed-index', 'SI'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
]
const list = (value, fallback) => (value ?? fallback).split(',').filter(Boolean)
const demoPages = list(process.env.LIGHTHOUSE_PAGES, '/,/services')
const generatedPages = list(process.env.LIGHTHOUSE_GENERATED, '/,/section-1/page-4,/pl/dzial-1')
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3))
const root = new URL('..', import.meta.url).pathname

process.env.NODE_ENV ??= 'production'
const temp = await mkdtemp(join(tmpdir(), 'site-lighthouse-'))

/** Builds the demo API's content (or a generated site) and serves the output. */
async function startSite(name, demo) {
  const api = await startDemoApi({ ...demo, port: 0 })
  const outDir = join(temp, name)
  const config = await resolveConfig({ root, apiBaseUrl: api.url, outDir })
  const result = await build({ config, site: selectSite(config.sites), logger: { info() {}, warn() {} } })
  if (result.failures.length) throw new Error(`${name} build failed: ${JSON.stringify(result.failures)}`)
  const server = await startStaticServer({ dir: outDir, host: '127.0.0.1', port: 0 })
  return { name, url: server.url, close: () => Promise.all([server.close(), api.close()]) }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]
const sites = [
  { site: await startSite('demo', {}), pages: demoPages },
  ...(generatedPages.length
    ? [
        {
          site: await startSite('generated', { generate: { pagesPerLocale: 12, everyKind: true } }),
          pages: generatedPages,
        },
      ]
    : []),
]
const chrome = await launchChromium()

/** One Lighthouse run; a tab that crashes (it happens on a loaded machine) is measured again, once. */
async function measure(url, retried = false) {
  try {
    const runner = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
    })
    if (runner.lhr.runtimeError) throw new Error(`${url}: ${runner.lhr.runtimeError.message}`)
    return runner.lhr
  } catch (error) {
    if (retried) throw error
    console.log(`    (${url}: ${error.code ?? error.message}; measured again)`)
    return measure(url, true)
  }
}

let below = 0
try {
  console.log(`${runs} run(s) per page; each category: lowest / median score`)
  console.log(`page${' '.repeat(32)}${CATEGORIES.map((c) => c.padStart(16)).join('')}`)
  for (const { site, pages } of sites) {
    for (const path of pages) {
      const results = []
      for (let i = 0; i < runs; i++) results.push(await measure(`${site.url}${path}`))
      const scores = CATEGORIES.map((c) => results.map((lhr) => Math.round((lhr.categories[c]?.score ?? 0) * 100)))
      below += scores.filter((s) => Math.min(...s) < TARGET).length
      const cells = scores.map((s) => `${Math.min(...s)} / ${median(s)}`.padStart(16))
      console.log(`${`${site.name} ${path}`.padEnd(36)}${cells.join('')}`)
      const worst = results.reduce((a, b) =>
        (a.categories.performance?.score ?? 0) <= (b.categories.performance?.score ?? 0) ? a : b,
      )
      console.log(`    ${METRICS.map(([id, short]) => `${short} ${worst.audits[id]?.displayValue ?? '?'}`).join(', ')}`)
      for (const c of CATEGORIES) {
        const failing = worst.categories[c].auditRefs
          .filter((ref) => ref.weight > 0)
          .map((ref) => worst.audits[ref.id])
          .filter((a) => a.score !== null && a.score < 1)
        for (const audit of failing.slice(0, 5))
          console.log(`    ${c}: ${audit.id} (${audit.title})${audit.displayValue ? `: ${audit.displayValue}` : ''}`)
      }
    }
  }
  console.log(`target: ${TARGET} in each category on every run; ${below === 0 ? 'all met' : `${below} score(s) below`}`)
} finally {
  await chrome.kill()
  for (const { site } of sites) await site.close()
  await rm(temp, { recursive: true, force: true })
}
