// Lighthouse (mobile preset) on the built demo home page and one content page,
// driving Debian's Chromium: prints performance, accessibility, best practices
// and SEO scores against the target of 95. Needs `npm run compile` first (npm run bench does it).
// Env: LIGHTHOUSE_PAGES="/,/services" to choose pages.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { build } from '../dist/build/build.js'
import { resolveConfig } from '../dist/config/load.js'
import { selectSite } from '../dist/config/resolve.js'
import { startDemoApi } from '../dist/demo/server.js'
import { startStaticServer } from '../dist/serve/server.js'

const TARGET = 95
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const pages = (process.env.LIGHTHOUSE_PAGES ?? '/,/services').split(',')
const root = new URL('..', import.meta.url).pathname

process.env.NODE_ENV ??= 'production'
const temp = await mkdtemp(join(tmpdir(), 'site-lighthouse-'))
const api = await startDemoApi({ port: 0 })
const outDir = join(temp, 'out')
const config = await resolveConfig({ root, apiBaseUrl: api.url, outDir })
const result = await build({ config, site: selectSite(config.sites), logger: { info() {}, warn() {} } })
if (result.failures.length) throw new Error(`demo build failed: ${JSON.stringify(result.failures)}`)
const server = await startStaticServer({ dir: outDir, host: '127.0.0.1', port: 0 })
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
})

let below = 0
try {
  console.log(`page${' '.repeat(22)}${CATEGORIES.map((c) => c.padStart(16)).join('')}`)
  for (const path of pages) {
    const runner = await lighthouse(`${server.url}${path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
    })
    const scores = CATEGORIES.map((c) => Math.round((runner.lhr.categories[c]?.score ?? 0) * 100))
    below += scores.filter((s) => s < TARGET).length
    console.log(`${path.padEnd(26)}${scores.map((s) => `${s}${s < TARGET ? ' (<95)' : ''}`.padStart(16)).join('')}`)
    for (const c of CATEGORIES) {
      const category = runner.lhr.categories[c]
      const failing = category.auditRefs
        .map((ref) => runner.lhr.audits[ref.id])
        .filter(
          (a) =>
            a.score !== null &&
            a.score < 0.9 &&
            a.scoreDisplayMode !== 'informative' &&
            a.scoreDisplayMode !== 'manual',
        )
      for (const audit of failing.slice(0, 5))
        console.log(`    ${c}: ${audit.id} (${audit.title})${audit.displayValue ? `: ${audit.displayValue}` : ''}`)
    }
  }
  console.log(`target: ${TARGET} or more in each category; ${below === 0 ? 'all met' : `${below} score(s) below`}`)
} finally {
  await chrome.kill()
  await server.close()
  await api.close()
  await rm(temp, { recursive: true, force: true })
}
