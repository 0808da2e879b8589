#!/usr/bin/env node
// The benchmark site itself (part `site`): builds the demo API's generated site (`site demo-api
// --generate N`, N pages a locale, default 1,000) with the CLI and measures its output, so that the
// figures of the other parts are known to come from pages like a customer's:
//   - KB of HTML a page (index.html files), links a page (`<a href>`: all, and those to pages of the site),
//   - rich text repeated across pages: the paragraphs of every `bodytext` (and bullet item) in the pages'
//     payloads, and the share of them (and of their characters) that occur on more than one page.
//
//   node bench/site.mjs [--pages N]   env: BENCH_PAGES
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { MB, ROOT, runSiteBuild, scratchParent, seconds } from './lib/processes.mjs'

const { values } = parseArgs({
  strict: false,
  allowPositionals: true,
  options: { pages: { type: 'string', default: process.env.BENCH_PAGES ?? '1000' } },
})

/** Paragraphs of a `bodytext` value: `<p>`s of rich text, else the whole string; bullet items one by one. */
function paragraphsOf(bodytext) {
  if (typeof bodytext === 'string') {
    const ps = [...bodytext.matchAll(/<p>(.*?)<\/p>/gs)].map((m) => m[1])
    return ps.length ? ps : [bodytext]
  }
  if (Array.isArray(bodytext) && bodytext.every((item) => typeof item === 'string')) return bodytext
  // definition lists are [term, definition] rows: the definition is the text; tables are left out
  if (Array.isArray(bodytext) && bodytext.every((row) => Array.isArray(row) && row.length === 2))
    return bodytext.map((row) => String(row[1]))
  return []
}

function collectBodytext(value, found) {
  if (Array.isArray(value)) for (const item of value) collectBodytext(item, found)
  else if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'bodytext' && value.type !== 'table') found.push(...paragraphsOf(inner))
      else collectBodytext(inner, found)
    }
}

const quantiles = (list) => {
  const sorted = [...list].sort((a, b) => a - b)
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  return { min: sorted[0], p10: at(0.1), median: at(0.5), p90: at(0.9), max: sorted.at(-1) }
}
const show = (q, unit = (n) => String(n)) =>
  `median ${unit(q.median)} (p10 ${unit(q.p10)}, p90 ${unit(q.p90)}, min ${unit(q.min)}, max ${unit(q.max)})`

/** Measures a built site's output folder. */
export async function measureOutput(out) {
  const files = (await readdir(out, { recursive: true })).filter(
    (f) => f.endsWith('index.html') && !f.startsWith('_site'),
  )
  const sizes = []
  const links = []
  const internal = []
  const seen = new Map()
  const known = (href) => href.startsWith('/') && existsSync(join(out, href, 'index.html'))
  for (const file of files) {
    const html = await readFile(join(out, file), 'utf8')
    sizes.push(Buffer.byteLength(html))
    const hrefs = [...html.matchAll(/<a\s[^>]*href="([^"]*)"/g)].map((m) => m[1])
    links.push(hrefs.length)
    internal.push(hrefs.filter(known).length)
    const payload = join(out, file.replace(/index\.html$/, '_payload.json'))
    if (!existsSync(payload)) continue
    const found = []
    collectBodytext(JSON.parse(await readFile(payload, 'utf8')), found)
    for (const paragraph of new Set(found)) seen.set(paragraph, (seen.get(paragraph) ?? 0) + 1)
  }
  let occurrences = 0
  let repeated = 0
  let chars = 0
  let repeatedChars = 0
  for (const [paragraph, pages] of seen) {
    occurrences += pages
    chars += paragraph.length * pages
    if (pages > 1) {
      repeated += pages
      repeatedChars += paragraph.length * pages
    }
  }
  return {
    pages: files.length,
    kb: quantiles(sizes.map((b) => b / 1024)),
    links: quantiles(links),
    internalLinks: quantiles(internal),
    paragraphs: { occurrences, distinct: seen.size, repeated, repeatedChars, chars },
  }
}

export function printShape(m) {
  const pct = (part, whole) => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`
  console.log(`  pages measured    ${m.pages}`)
  console.log(`  HTML a page       ${show(m.kb, (kb) => `${kb.toFixed(1)} KB`)}`)
  console.log(`  links a page      ${show(m.links)}`)
  console.log(`  to site pages     ${show(m.internalLinks)}`)
  const p = m.paragraphs
  console.log(
    `  rich text         ${p.occurrences} paragraphs on pages, ${p.distinct} distinct; on more than one page: ${p.repeated} (${pct(p.repeated, p.occurrences)}), ${pct(p.repeatedChars, p.chars)} of the characters (target 0)`,
  )
}

async function main() {
  const { startDemoApi } = await import(pathToFileURL(join(ROOT, 'dist/demo/server.js')).href)
  const pagesPerLocale = Number(values.pages)
  const api = await startDemoApi({ port: 0, generate: { pagesPerLocale } })
  const dir = await mkdtemp(join(await scratchParent(2048 * MB), 'site-bench-shape-'))
  try {
    const build = await runSiteBuild(['--api', api.url, '--out', join(dir, 'out')])
    console.log(
      `generated site (site demo-api --generate ${pagesPerLocale}), built in ${seconds(build.wallMs)}: ${build.summary.pages.total} pages`,
    )
    printShape(await measureOutput(join(dir, 'out')))
  } finally {
    await api.close()
    await rm(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main()
