#!/usr/bin/env node
// The 30,000-page site: the demo API's generated site at N pages a locale (default 10,000) and L ms API
// latency (default 20). Every build is the real CLI (bench/lib/site-child.mjs: bin/site.js on the compiled
// dist/) in a child process, timed from spawn to exit, its peak RSS sampled from /proc. Parts (BENCH_PARTS,
// set by bench/run.mjs from BENCH_ONLY; default `rss,only`):
//
//   rss         a full build with no previous output: wall and peak RSS. Target: peak RSS under 250 MB.
//   only        one page changed, rebuilt by its uid (three locales) in each way of ONLY_WAYS: the one-shot
//               CLI (`site build --only UID`, start included), and a warm builder (`site publish`'s: workers
//               loaded, client bundled, the output verified by an earlier build), once with the page's subtitle
//               changed (the pages linking to it are asked again) and once with its content changed (it alone);
//               a warm builder's line is followed by 5 later builds of the page changed again, as a publisher
//               makes them. Each way is followed by the API latency floor of its requests. Needs the full build first.
//   unchanged   (on request) a full build with nothing changed: 0 page files rewritten, output untouched.
//   navigation  (on request) a navigation title changed in en, then in every locale, `--only 2`: every page
//               of those locales rendered again from kept data. Target: under 60 s.
//
//   node bench/incremental.mjs [--pages N] [--latency L]   env: BENCH_LARGE_PAGES, BENCH_LARGE_LATENCY_MS
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { MB, mb, median, ROOT, runSiteBuild, scratchParent, seconds, selectedParts, verdict } from './lib/processes.mjs'

const RSS_TARGET_MB = 250
/** `build.concurrency`'s default: API requests in flight at once. */
const API_CONCURRENCY = 4
const NAVIGATION_TARGET_MS = 60_000

const { values } = parseArgs({
  strict: false,
  allowPositionals: true,
  options: {
    pages: { type: 'string', default: process.env.BENCH_LARGE_PAGES ?? '10000' },
    latency: { type: 'string', default: process.env.BENCH_LARGE_LATENCY_MS ?? '20' },
  },
})
const parts = selectedParts(['rss', 'only'])
const line = (label, value) => console.log(`  ${label.padEnd(52)}${value}`)

/** Builds a warm builder makes after the measured one, each of the page changed again (a publisher's later edits). */
const LATER_BUILDS = 5

/**
 * A warm builder's second `--only` build of `uid`: workers loaded, client bundled, the output known from the first;
 * then LATER_BUILDS more, whose times come back as `later`.
 */
async function warmRebuild(uid, { api, out, change }) {
  process.env.NODE_ENV ??= 'production'
  const { createBuilder } = await import(pathToFileURL(join(ROOT, 'dist/build/builder.js')).href)
  const { resolveConfig } = await import(pathToFileURL(join(ROOT, 'dist/config/load.js')).href)
  const config = await resolveConfig({ root: ROOT, apiBaseUrl: api.url, outDir: out })
  const builder = createBuilder({ config, site: config.sites[0] })
  try {
    await builder.build({ only: [String(uid)] })
    change('again')
    // the measured build's requests only: the first build asked for its pages too
    const requestsAfter = api.requests.at(-1)
    const started = performance.now()
    const summary = await builder.build({ only: [String(uid)] })
    const wallMs = performance.now() - started
    const requestsUntil = api.requests.at(-1)
    // what a publisher's builder does from then on: the same page changed again, built again
    const later = []
    for (let i = 0; i < LATER_BUILDS; i++) {
      change(` later ${i}`)
      const t = performance.now()
      await builder.build({ only: [String(uid)] })
      later.push(performance.now() - t)
    }
    return { wallMs, summary, requestsAfter, requestsUntil, later }
  } finally {
    await builder.close()
  }
}

/**
 * Ways to rebuild one changed page, each measured in turn: `rebuild(uid)` resolves to { wallMs, peakRssBytes,
 * summary } (the build summary of `site build --json`), and `requestsAfter` and `requestsUntil`, the API's last
 * request before and in the measured build, when the way builds more than once. `edit` is what changes: the page's subtitle, which the
 * pages linking to it show (so they are asked for again), or the text of its content elements (it alone).
 */
const ONLY_WAYS = [
  {
    label: 'one-shot CLI (start included)',
    edit: 'subtitle',
    targetMs: 3000,
    rebuild: (uid, { api, out }) => runSiteBuild(['--api', api.url, '--out', out, '--only', String(uid)]),
  },
  { label: 'warm builder, after one --only build', edit: 'subtitle', targetMs: 300, rebuild: warmRebuild },
  { label: 'the same, its content edited instead', edit: 'content', targetMs: 300, rebuild: warmRebuild },
]

/** How an edit of `kind` changes the page's answers, `text` marking it. */
const EDITS = {
  subtitle: (text) => ({ find: '"subtitle":""', replace: `"subtitle":"${text}"` }),
  content: (text) => ({ find: '"bodytext":"<p>', replace: `"bodytext":"<p>${text} ` }),
}

/** Every file of a tree with its inode, size and modification time: unchanged ones were not touched. */
async function identities(dir) {
  const map = new Map()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const info = await stat(join(entry.parentPath, entry.name), { bigint: true })
    map.set(join(entry.parentPath, entry.name), `${info.ino}:${info.size}:${info.mtimeNs}`)
  }
  return map
}

/** Page requests (not initial data) the API got after `marker`, its latest request before a build (the log is capped). */
const pageRequests = (api, marker, last) =>
  api.requests
    .slice(api.requests.lastIndexOf(marker) + 1, last === undefined ? undefined : api.requests.lastIndexOf(last) + 1)
    .filter((r) => r.query.type === undefined).length

/** A child page three fifths into the site: index i is `/section-<s>/page-<i>`, uid i + 1 (src/demo/generator-site.ts). */
function changedPage(pagesPerLocale) {
  const near = Math.floor(pagesPerLocale * 0.6)
  const index = (near - 1) % 50 === 0 ? near + 1 : near
  const s = Math.floor((index - 1) / 50) + 1
  const paths = [`/section-${s}/page-${index}`, `/pl/dzial-${s}/strona-${index}`, `/de/bereich-${s}/seite-${index}`]
  return { uid: index + 1, paths, edits: paths.map((path) => ({ path, ...EDITS.subtitle('Updated') })) }
}

async function navigation(api, build, pageEdits) {
  const entries = []
  for (const prefix of ['', '/pl', '/de']) {
    const data = await (await fetch(`${api.url}${prefix}/?type=834`)).json()
    entries.push({ prefix, title: data.navigation[0].children[0].title })
  }
  const edit = ({ prefix, title }, mark) => ({
    path: prefix || '/',
    query: 'type=834',
    find: `"title":"${title}"`,
    replace: `"title":"${title} ${mark}"`,
  })
  for (const [label, edits] of [
    ['en', [edit(entries[0], '*')]],
    ['en, pl, de', entries.map((entry) => edit(entry, '**'))],
  ]) {
    api.setEdits([...pageEdits, ...edits])
    const from = api.requests.at(-1)
    const nav = await build('--only', '2')
    line(
      `navigation title changed (${label}), --only 2`,
      `${seconds(nav.wallMs)}, ${nav.summary.changes.pages.changed.length} pages rendered again (${nav.summary.only.rerenderedLocales.join(', ')}), ${pageRequests(api, from)} page requests, peak RSS ${mb(nav.peakRssBytes)} (target: under 60 s: ${verdict(nav.wallMs < NAVIGATION_TARGET_MS)})`,
    )
  }
}

const { startDemoApi } = await import(pathToFileURL(join(ROOT, 'dist/demo/server.js')).href)
const pagesPerLocale = Number(values.pages)
const latencyMs = Number(values.latency)
const api = await startDemoApi({ port: 0, latencyMs, generate: { pagesPerLocale } })
// About 3 GB of output at 30,000 pages: memory when it has room for it and to spare.
const dir = await mkdtemp(join(await scratchParent(8192 * MB), 'site-bench-large-'))
const out = join(dir, 'out')
const build = (...args) => runSiteBuild(['--api', api.url, '--out', out, ...args])
try {
  console.log(
    `the large site: ${pagesPerLocale} pages a locale x 3, API latency ${latencyMs} ms, ${availableParallelism()} CPUs, output in ${dir}`,
  )
  const first = await build()
  line(
    'full build, no previous output',
    `${seconds(first.wallMs)}, ${seconds(first.cpuMs)} CPU, ${first.summary.pages.total} pages, peak RSS ${mb(first.peakRssBytes)} (target: under ${RSS_TARGET_MB} MB: ${verdict(first.peakRssBytes < RSS_TARGET_MB * MB)})`,
  )
  if (parts.has('unchanged')) {
    const before = await identities(out)
    const same = await build()
    const after = await identities(out)
    const touched = [...after].filter(([path, id]) => before.get(path) !== id).length + (before.size - after.size)
    const rewritten = same.summary.changes.pages.changed.length + same.summary.changes.pages.added.length
    line(
      'full build, nothing changed',
      `${seconds(same.wallMs)}, ${rewritten} page files rewritten, ${touched} of ${after.size} files touched, peak RSS ${mb(same.peakRssBytes)} (target: none: ${verdict(rewritten === 0 && touched === 0)})`,
    )
  }
  const page = changedPage(pagesPerLocale)
  if (parts.has('only'))
    for (const [k, way] of ONLY_WAYS.entries()) {
      const change = (mark) =>
        api.setEdits(page.paths.map((path) => ({ path, ...EDITS[way.edit](`Updated ${k + 1}${mark}`) })))
      change('')
      const from = api.requests.at(-1)
      const one = await way.rebuild(page.uid, { api, out, change })
      const rss = one.peakRssBytes === undefined ? '' : `, peak RSS ${mb(one.peakRssBytes)}`
      const requests = pageRequests(api, one.requestsAfter ?? from, one.requestsUntil)
      line(
        `--only ${page.uid}, ${way.label}`,
        `${seconds(one.wallMs)}, ${one.summary.changes.pages.changed.length} pages changed (3 locales), ${requests} page requests${way.edit === 'subtitle' ? ' (it and the pages linking to it)' : ''}${rss} (target: under ${seconds(way.targetMs)}: ${verdict(one.wallMs < way.targetMs)})`,
      )
      if (one.later?.length) {
        const typical = median(one.later)
        line(
          `  ${one.later.length} later builds, changed again each time`,
          `median ${seconds(typical)}, ${seconds(Math.min(...one.later))}-${seconds(Math.max(...one.later))} (target: under ${seconds(way.targetMs)}: ${verdict(typical < way.targetMs)})`,
        )
      }
      // what the API's latency alone costs those requests, API_CONCURRENCY at a time: no build is faster
      line(
        '  of which the API latency floor',
        `at least ${seconds(Math.ceil(requests / API_CONCURRENCY) * latencyMs)} (${requests} requests / ${API_CONCURRENCY} x ${latencyMs} ms)`,
      )
    }
  if (parts.has('navigation')) await navigation(api, build, page.edits)
} finally {
  await api.close()
  await rm(dir, { recursive: true, force: true })
}
