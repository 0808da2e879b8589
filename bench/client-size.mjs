// Size of the JavaScript and CSS a visitor downloads on first load of a page.
//   node bench/client-size.mjs [--json] [--root DIR]     (after `npm run compile`)
// First load = the entry script and every chunk it imports statically (what blocks
// hydration; the pages preload them). Chunks the entry imports dynamically (client
// navigation, loaded once the browser is idle) are listed apart and counted in the total.
// Each file is gzipped on its own, as a server sends it.
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'

/** Target: at most 80 KB gzip of first-load JavaScript, React included (issue 5). */
export const FIRST_LOAD_JS_TARGET_BYTES = 80_000

const repo = fileURLToPath(new URL('..', import.meta.url))
// In esbuild's ESM output (chunk URLs relative, or absolute with publicPath):
// `from"/_site/assets/chunk-X.js"`, `import"./chunk-X.js"` (static), `import("/_site/assets/chunk-X.js")` (dynamic).
const CHUNK = String.raw`["'](?:\.\/|\/_site\/assets\/)([^"'/]+\.js)["']`
const STATIC_RE = new RegExp(String.raw`(?:\bfrom\s*|\bimport\s*)` + CHUNK, 'g')
const DYNAMIC_RE = new RegExp(String.raw`\bimport\s*\(\s*` + CHUNK + String.raw`\s*\)`, 'g')

const sizeOf = (contents) => ({ bytes: contents.length, gzip: gzipSync(contents).length })

/** Splits the JS reachable from the entry into static (first load) and dynamic (deferred) files. */
function classify(files, entryPath) {
  const byName = new Map(files.map((f) => [f.path.split('/').pop(), f]))
  const importsOf = (file, re) => [...Buffer.from(file.contents).toString('utf8').matchAll(re)].map((m) => byName.get(m[1])).filter(Boolean)
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
  const contents = "import { hydrateRoot } from 'react-dom/client'; import { jsx } from 'react/jsx-runtime'; hydrateRoot(document, jsx('div', {}))"
  const result = await build({
    stdin: { contents, resolveDir: repo, loader: 'js' },
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  })
  return sizeOf(result.outputFiles[0].contents)
}

export async function measureClientSize({ root = repo } = {}) {
  const modulePath = new URL('../dist/build/bundle-client.js', import.meta.url)
  if (!existsSync(modulePath)) throw new Error('dist/ is missing: run `npm run compile` first')
  const { bundleClient } = await import(modulePath.href)
  const { assets, files } = await bundleClient({ root, minify: true })
  const toPath = (url) => url.replace(/^\//, '')
  const { staticFiles, dynamicFiles } = classify(files, toPath(assets.scripts[0]))
  const row = (path) => ({ path, ...sizeOf(files.find((f) => f.path === path).contents) })
  const sum = (rows) => rows.reduce((a, r) => ({ bytes: a.bytes + r.bytes, gzip: a.gzip + r.gzip }), { bytes: 0, gzip: 0 })
  const firstLoad = staticFiles.map(row)
  const deferred = dynamicFiles.map(row)
  const css = assets.styles.map((url) => row(toPath(url)))
  const js = sum(firstLoad)
  const all = sum([...firstLoad, ...deferred])
  return {
    targetGzip: FIRST_LOAD_JS_TARGET_BYTES,
    firstLoadJs: { files: firstLoad, ...js, ratio: js.gzip / FIRST_LOAD_JS_TARGET_BYTES },
    deferredJs: { files: deferred, ...sum(deferred) },
    totalJs: { ...all, ratio: all.gzip / FIRST_LOAD_JS_TARGET_BYTES },
    css: { files: css, ...sum(css) },
    react: await measureReact(),
  }
}

const kb = (n) => `${(n / 1000).toFixed(1)} kB`

function print(report) {
  const lines = []
  const table = (title, group) => {
    lines.push(title)
    for (const f of group.files) lines.push(`  ${f.path.padEnd(44)} ${kb(f.bytes).padStart(10)} ${kb(f.gzip).padStart(10)} gzip`)
    lines.push(`  ${'total'.padEnd(44)} ${kb(group.bytes).padStart(10)} ${kb(group.gzip).padStart(10)} gzip`)
  }
  table('First-load JS (entry + static imports):', report.firstLoadJs)
  table('Deferred JS (dynamic imports, loaded when idle):', report.deferredJs)
  table('CSS:', report.css)
  const pct = (r) => `${(r * 100).toFixed(1)}%`
  lines.push(`React alone (react-dom/client + jsx runtime): ${kb(report.react.bytes)}, ${kb(report.react.gzip)} gzip; the rest of first-load JS: ${kb(report.firstLoadJs.gzip - report.react.gzip)} gzip`)
  lines.push(`First-load JS ${kb(report.firstLoadJs.gzip)} gzip = ${pct(report.firstLoadJs.ratio)} of the ${kb(report.targetGzip)} target`)
  lines.push(`All JS of a first visit ${kb(report.totalJs.gzip)} gzip = ${pct(report.totalJs.ratio)} of the target`)
  return lines.join('\n')
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const args = process.argv.slice(2)
  const rootAt = args.indexOf('--root')
  const report = await measureClientSize(rootAt >= 0 ? { root: args[rootAt + 1] } : {})
  process.stdout.write(args.includes('--json') ? `${JSON.stringify(report, null, 2)}\n` : `${print(report)}\n`)
}
