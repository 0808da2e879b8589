// Size of the JavaScript and CSS a visitor downloads on first load of a page.
//   node bench/client-size.mjs [--json] [--root DIR] [--page FILE]     (after `npm run compile`)
// First load = what a page needs before it hydrates: the entry script and every chunk it
// imports statically (every page), plus the chunks the page preloads and the client imports
// before hydrating: its locale's texts, and the templates of its main when one of them is
// marked 'use client' (else the main keeps the server's markup and needs none). The typical
// page is the demo home page (or --page FILE, a page as the content API sends it, in the
// locale of its folder); every demo page is summed up too. Chunks loaded later (client
// navigation once the browser is idle, templates, other locales' texts) are listed apart.
// Each file is gzipped on its own, as a server sends it.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'

/** Target: at most 80 KB gzip of first-load JavaScript, React included. */
export const FIRST_LOAD_JS_TARGET_BYTES = 80_000

const repo = fileURLToPath(new URL('..', import.meta.url))
const DEMO_PAGES = join(repo, 'demo', 'content', 'pages')
const HOME_PAGE = join(DEMO_PAGES, 'en', 'home.json')
/** The demo's default locale (config/site.config.ts); a page's locale is the name of its folder. */
const DEFAULT_LOCALE = 'en'
const dist = (path) => new URL(`../dist/${path}`, import.meta.url)
// In esbuild's ESM output (chunk URLs relative, or absolute with publicPath):
// `from"/_site/assets/chunk-X.js"`, `import"./chunk-X.js"` (static), `import("/_site/assets/chunk-X.js")` (dynamic).
const CHUNK = String.raw`["'](?:\.\/|\/_site\/assets\/)([^"'/]+\.js)["']`
const STATIC_RE = new RegExp(String.raw`(?:\bfrom\s*|\bimport\s*)` + CHUNK, 'g')
const DYNAMIC_RE = new RegExp(String.raw`\bimport\s*\(\s*` + CHUNK + String.raw`\s*\)`, 'g')

const sizeOf = (contents) => ({ bytes: contents.length, gzip: gzipSync(contents).length })

/** Splits the JS reachable from the entry into static (every page's first load) and dynamic (on demand) files. */
function classify(files, entryPath) {
  const byName = new Map(files.map((f) => [f.path.split('/').pop(), f]))
  const importsOf = (file, re) =>
    [...Buffer.from(file.contents).toString('utf8').matchAll(re)].map((m) => byName.get(m[1])).filter(Boolean)
  const walk = (start, skip, follow) => {
    const seen = new Set()
    const queue = [...start]
    while (queue.length > 0) {
      const file = queue.pop()
      if (seen.has(file.path) || skip.has(file.path)) continue
      seen.add(file.path)
      queue.push(...follow(file))
    }
    return seen
  }
  const entry = files.find((f) => f.path === entryPath)
  const staticSet = walk([entry], new Set(), (f) => importsOf(f, STATIC_RE))
  const dynamicRoots = [...staticSet].flatMap((path) => importsOf(byName.get(path.split('/').pop()), DYNAMIC_RE))
  const deferred = walk(dynamicRoots, staticSet, (f) => [...importsOf(f, STATIC_RE), ...importsOf(f, DYNAMIC_RE)])
  return { staticFiles: [...staticSet], dynamicFiles: [...deferred] }
}

/** React alone (react-dom/client + the JSX runtime), bundled and minified like the client: the fixed part of the budget. */
async function measureReact() {
  const { build } = await import('esbuild')
  const contents =
    "import { hydrateRoot } from 'react-dom/client'; import { jsx } from 'react/jsx-runtime'; hydrateRoot(document, jsx('div', {}))"
  const result = await build({
    stdin: { contents, resolveDir: repo, loader: 'js' },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    logLevel: 'silent',
  })
  return sizeOf(result.outputFiles[0].contents)
}

/** The demo pages as the content API sends them (`demo/content/pages/<locale>/<slug>.json`). */
const demoPageFiles = () =>
  existsSync(DEMO_PAGES)
    ? readdirSync(DEMO_PAGES, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .flatMap((d) =>
          readdirSync(join(DEMO_PAGES, d.name))
            .filter((f) => f.endsWith('.json'))
            .map((f) => join(DEMO_PAGES, d.name, f)),
        )
        .sort()
    : []

export async function measureClientSize({ root = repo, page: pageFile = HOME_PAGE } = {}) {
  if (!existsSync(dist('hydration/bundle.js'))) throw new Error('dist/ is missing: run `npm run compile` first')
  const { bundleClient } = await import(dist('hydration/bundle.js').href)
  const { preparePage } = await import(dist('render/prepare.js').href)
  const { decideHydration, preloadUrls, templateNeeds } = await import(dist('hydration/plan.js').href)
  const { assets, files } = await bundleClient({ root, minify: true })
  const toPath = (url) => url.replace(/^\//, '')
  const { staticFiles, dynamicFiles } = classify(files, toPath(assets.scripts[0]))
  const sizes = new Map(files.map((f) => [f.path, sizeOf(f.contents)]))
  const chunks = assets.templateChunks ?? { layouts: {}, content: {} }
  // A name per file: what it holds, from the bundle's template map.
  const labels = new Map(staticFiles.map((path, i) => [path, i === 0 ? 'entry' : 'loaded with the entry']))
  const named = {
    ...chunks,
    ErrorPage: { ErrorPage: chunks.ErrorPage ?? [] },
    main: { 'site:templates/main': chunks.main ?? [], 'client/islands': chunks.islands ?? [] },
  }
  for (const kind of ['layouts', 'content', 'texts', 'ErrorPage', 'main']) {
    for (const [name, urls] of Object.entries(named[kind] ?? {})) {
      urls.forEach((url, i) => {
        if (i === 0) labels.set(toPath(url), kind === name || kind === 'main' ? name : `${kind}/${name}`)
        else if (!labels.has(toPath(url))) labels.set(toPath(url), 'shared by templates')
      })
    }
  }
  const row = (path) => ({ path, label: labels.get(path) ?? 'client navigation', ...sizes.get(path) })
  const sum = (rows) =>
    rows.reduce((a, r) => ({ bytes: a.bytes + r.bytes, gzip: a.gzip + r.gzip }), { bytes: 0, gzip: 0 })

  const localeOf = (file) => basename(join(file, '..'))
  /** The chunks beyond the entry's a page (as the API sends it) loads before hydrating, as its HTML preloads them. */
  const templateFilesOf = (raw, locale) => {
    const state = {
      page: preparePage(raw).page,
      locale,
      editorPreview: false,
      site: { i18n: { default: DEFAULT_LOCALE } },
    }
    const every = new Set(assets.modulePreloads ?? [])
    const hydration = decideHydration(state, chunks)
    const keep = hydration.kind !== 'full'
    const needs = templateNeeds(state, chunks, { main: !keep })
    const islands = hydration.kind === 'islands' ? [...new Set(hydration.islands.map((island) => island.template))] : []
    return {
      needs: { ...needs, keepsMain: keep, islands },
      paths: preloadUrls(assets, state, hydration)
        .filter((url) => !every.has(url))
        .map(toPath),
    }
  }
  const everyPage = staticFiles.map(row)
  const base = sum(everyPage)
  const typical = templateFilesOf(JSON.parse(readFileSync(pageFile, 'utf8')), localeOf(pageFile))
  const typicalTemplates = typical.paths.map(row)
  const typicalJs = sum([...everyPage, ...typicalTemplates])
  const pages = demoPageFiles().map((file) => {
    const { paths } = templateFilesOf(JSON.parse(readFileSync(file, 'utf8')), localeOf(file))
    return {
      page: relative(DEMO_PAGES, file),
      gzip: base.gzip + sum(paths.map(row)).gzip,
      files: everyPage.length + paths.length,
    }
  })
  pages.sort((a, b) => a.gzip - b.gzip)
  const deferred = dynamicFiles.filter((path) => !typical.paths.includes(path)).map(row)
  const css = assets.styles.map((url) => ({ ...row(toPath(url)), label: 'stylesheet' }))
  const all = sum([...everyPage, ...dynamicFiles.map(row)])
  return {
    targetGzip: FIRST_LOAD_JS_TARGET_BYTES,
    everyPageJs: { files: everyPage, ...base, ratio: base.gzip / FIRST_LOAD_JS_TARGET_BYTES },
    typicalPage: {
      page: relative(repo, pageFile),
      templates: typical.needs,
      templateFiles: { files: typicalTemplates, ...sum(typicalTemplates) },
      firstLoadJs: {
        ...typicalJs,
        files: everyPage.length + typicalTemplates.length,
        ratio: typicalJs.gzip / FIRST_LOAD_JS_TARGET_BYTES,
      },
    },
    demoPages:
      pages.length === 0
        ? undefined
        : {
            count: pages.length,
            smallest: pages[0],
            median: pages[Math.floor(pages.length / 2)],
            largest: pages[pages.length - 1],
          },
    deferredJs: { files: deferred, ...sum(deferred) },
    totalJs: { ...all, ratio: all.gzip / FIRST_LOAD_JS_TARGET_BYTES },
    css: { files: css, ...sum(css) },
    react: await measureReact(),
  }
}

const kb = (n) => `${(n / 1000).toFixed(1)} kB`
const pct = (r) => `${(r * 100).toFixed(1)}%`

function print(report) {
  const lines = []
  const line = (name, label, size) =>
    `  ${name.padEnd(34)} ${label.padEnd(32)} ${kb(size.bytes).padStart(9)} ${kb(size.gzip).padStart(9)} gzip`
  const table = (title, group) => {
    lines.push(title)
    for (const f of group.files) lines.push(line(basename(f.path), f.label, f))
    lines.push(line('total', '', group))
  }
  const { typicalPage: typical } = report
  table('Every page (entry + static imports):', report.everyPageJs)
  const { templates: needs } = typical
  const main = needs.keepsMain
    ? `main kept as rendered${needs.islands?.length ? `, islands ${needs.islands.join(', ')}` : ''}`
    : `layout ${needs.layouts.join(', ') || '-'}; content ${needs.content.join(', ') || '-'}`
  table(`Loaded before hydrating ${typical.page} (texts ${needs.texts ?? '-'}; ${main}):`, typical.templateFiles)
  table(`Deferred JS (client navigation once idle, the templates ${typical.page} does not use):`, report.deferredJs)
  table('CSS:', report.css)
  lines.push(
    `React alone (react-dom/client + jsx runtime): ${kb(report.react.bytes)}, ${kb(report.react.gzip)} gzip; the rest of the typical page's first-load JS: ${kb(typical.firstLoadJs.gzip - report.react.gzip)} gzip`,
  )
  lines.push(
    `First-load JS every page shares (entry and its static imports; a page adds its locale's texts) ${kb(report.everyPageJs.gzip)} gzip = ${pct(report.everyPageJs.ratio)} of the ${kb(report.targetGzip)} target`,
  )
  if (report.demoPages) {
    const { count, smallest, median, largest } = report.demoPages
    lines.push(
      `Demo pages (${count}): first-load JS ${kb(smallest.gzip)} (${smallest.page}) to ${kb(largest.gzip)} (${largest.page}), median ${kb(median.gzip)} gzip`,
    )
  }
  lines.push(
    `First-load JS of the typical page (${typical.page}, ${typical.firstLoadJs.files} files) ${kb(typical.firstLoadJs.gzip)} gzip = ${pct(typical.firstLoadJs.ratio)} of the ${kb(report.targetGzip)} target`,
  )
  lines.push(`All JS of the site ${kb(report.totalJs.gzip)} gzip`)
  return lines.join('\n')
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const args = process.argv.slice(2)
  const option = (name) => (args.indexOf(name) >= 0 ? args[args.indexOf(name) + 1] : undefined)
  const root = option('--root')
  const page = option('--page')
  const report = await measureClientSize({ ...(root ? { root } : {}), ...(page ? { page } : {}) })
  process.stdout.write(args.includes('--json') ? `${JSON.stringify(report, null, 2)}\n` : `${print(report)}\n`)
}
