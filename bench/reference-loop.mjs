#!/usr/bin/env node
// The bare reference loop of bench/build.mjs (part `loop`): over the given page paths,
// at most 4 at once (p-limit), an undici request to the API, `renderToString` of the same templates
// (the render core's renderPage over the project's templates, in this thread, on the API's answer as
// it is: no preparing, no document, no hydration plan, no crawl, no hashing), and two file writes (the
// rendered markup and the answer). Reads { apiUrl, outDir, paths } as JSON on stdin; prints
// { pages, errors, cpuMs, maxRssBytes } as one JSON line. Needs the compiled dist/.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import pLimit from 'p-limit'
import { request } from 'undici'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const dist = (path) => pathToFileURL(join(ROOT, 'dist', path)).href
const LOCALES = ['en', 'pl', 'de']
const CONCURRENCY = 4

let input = ''
for await (const chunk of process.stdin) input += chunk
const { apiUrl, outDir, paths } = JSON.parse(input)

const { loadRenderer } = await import(dist('render/renderer.js'))
const renderer = await loadRenderer(ROOT)
const site = {
  baseUrl: 'http://127.0.0.1:8080',
  i18n: { default: 'en', locales: LOCALES },
  gtmId: undefined,
  consentHost: undefined,
  i18nMiddleware: true,
}
const getJson = async (url) => (await request(url)).body.json()
const initialData = new Map()
for (const locale of LOCALES)
  initialData.set(locale, await getJson(`${apiUrl}${locale === 'en' ? '' : `/${locale}`}/?type=834`))

// Only the loop is measured: loading the templates and the initial data is fixed cost.
const cpuStart = process.cpuUsage()
const limit = pLimit(CONCURRENCY)
let errors = 0
await Promise.all(
  paths.map((path) =>
    limit(async () => {
      const text = await (await request(`${apiUrl}${path}`)).body.text()
      const locale = LOCALES.find((l) => path === `/${l}` || path.startsWith(`/${l}/`)) ?? 'en'
      const state = {
        site,
        mode: 'static',
        editorPreview: false,
        debug: false,
        path,
        locale,
        status: 200,
        page: JSON.parse(text),
        initialData: initialData.get(locale),
      }
      let html = ''
      try {
        html = renderer.renderPage(state).appHtml
      } catch {
        errors += 1
      }
      const dir = join(outDir, ...path.split('/').filter(Boolean))
      await mkdir(dir, { recursive: true })
      await Promise.all([writeFile(join(dir, 'index.html'), html), writeFile(join(dir, '_payload.json'), text)])
    }),
  ),
)
const { user, system } = process.cpuUsage(cpuStart)
const usage = {
  pages: paths.length,
  errors,
  cpuMs: (user + system) / 1000,
  maxRssBytes: process.resourceUsage().maxRSS * 1024,
}
process.stdout.write(`${JSON.stringify(usage)}\n`)
