/**
 * Checkers written by others, run on a built output folder: xmllint (Debian's libxml2-utils,
 * installed by scripts/setup.sh) against the sitemap schemas, Netlify's own `_redirects` parser
 * and `robots-parser`. Each returns what it read and the errors it found, so that the tests can
 * print the counts and a regression shows as a number.
 */
import { execFile } from 'node:child_process'
import { statSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { parseAllRedirects } from 'netlify-redirect-parser'
import { toHtmlFile } from '../../src/shared/url.js'

const run = promisify(execFile)
const require = createRequire(import.meta.url)
const SCHEMAS = new URL('../fixtures/sitemap-schemas/', import.meta.url)
// robots-parser is CommonJS (module.exports = function); its types declare an ES default.
const robotsParser = require('robots-parser') as (
  url: string,
  text: string,
) => { isAllowed(url: string, ua?: string): boolean | undefined; getSitemaps(): string[] }

/** Whether `xmllint` is on the PATH. */
export const hasXmllint: boolean = await run('xmllint', ['--version']).then(
  () => true,
  () => false,
)

export interface ValidatorResult {
  /** Files (or rules, or URLs) the checker read. */
  checked: number
  errors: string[]
}

/** Runs xmllint with a schema over files; its errors, one line each. */
async function xmllint(schema: string, files: string[]): Promise<string[]> {
  if (files.length === 0) return []
  const args = ['--noout', '--nonet', '--huge', '--schema', schema, ...files]
  const stderr = await run('xmllint', args, { maxBuffer: 64 * 1024 * 1024 }).then(
    (out) => out.stderr,
    (error: { stderr?: string; code?: number }) => {
      // 3: the documents do not validate; anything else is xmllint failing to run
      if (error.code !== 3 && error.code !== 4 && error.code !== 1) throw error
      return error.stderr ?? ''
    },
  )
  return stderr.split('\n').filter((line) => line !== '' && !/ (validates|fails to validate)$/.test(line))
}

/**
 * Every sitemap file of an output against the sitemaps.org schemas: `<urlset>` files against
 * sitemap.xsd (as the `sitemap` package ships it) with the `xhtml:link` alternates, the index
 * against siteindex.xsd (test/fixtures/sitemap-schemas/README.md says where each comes from).
 */
export async function checkSitemapsWithXmllint(outDir: string): Promise<ValidatorResult> {
  const files = (await readdir(outDir)).filter((f) => /^sitemap(-\d+)?\.xml$/.test(f)).map((f) => join(outDir, f))
  const urlsets: string[] = []
  const indexes: string[] = []
  for (const file of files) ((await readFile(file, 'utf8')).includes('<sitemapindex') ? indexes : urlsets).push(file)
  const temp = await mkdtemp(join(tmpdir(), 'site-xsd-'))
  try {
    const urlsetSchema = join(temp, 'urlset.xsd')
    const sitemapXsd = pathToFileURL(join(dirname(require.resolve('sitemap/package.json')), 'schema/sitemap.xsd')).href
    await writeFile(
      urlsetSchema,
      `<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <xsd:import namespace="http://www.sitemaps.org/schemas/sitemap/0.9" schemaLocation="${sitemapXsd}"/>
  <xsd:import namespace="http://www.w3.org/1999/xhtml" schemaLocation="${new URL('xhtml-link.xsd', SCHEMAS).href}"/>
</xsd:schema>
`,
    )
    const errors = [
      ...(await xmllint(urlsetSchema, urlsets)),
      ...(await xmllint(new URL('siteindex.xsd', SCHEMAS).pathname, indexes)),
    ]
    return { checked: files.length, errors }
  } finally {
    await rm(temp, { recursive: true, force: true })
  }
}

const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false

export interface RedirectsCheck extends ValidatorResult {
  rules: Array<{ from: string; to: string; status: number; force: boolean }>
  /** Rules a file at their old path would shadow on Netlify (it serves the file, 200, for an unforced rule). */
  shadowed: string[]
}

/** `_redirects` as Netlify reads it (netlify-redirect-parser), and the unforced rules a file shadows. */
export async function checkRedirectsWithNetlify(outDir: string): Promise<RedirectsCheck> {
  const { redirects, errors } = await parseAllRedirects({
    redirectsFiles: [join(outDir, '_redirects')],
    configRedirects: [],
    minimal: true,
  })
  const rules = (redirects as Array<{ from: string; to: string; status?: number; force: boolean }>).map((r) => ({
    from: r.from,
    to: r.to,
    status: r.status ?? 301,
    force: r.force,
  }))
  // Netlify serves `/a` from `a`, `a.html` or `a/index.html`.
  const shadowed = rules
    .filter((r) => !r.force)
    .filter((r) =>
      [r.from.slice(1), `${r.from.slice(1)}.html`, toHtmlFile(r.from)].some(
        (file) => file !== '' && isFile(join(outDir, decodeURIComponent(file))),
      ),
    )
    .map((r) => r.from)
  return {
    checked: rules.length,
    errors: errors.map((e: { message?: string }) => e.message ?? String(e)),
    rules,
    shadowed,
  }
}

/** robots.txt as `robots-parser` reads it: every URL must be allowed, and the Sitemap line must name `sitemapUrl`. */
export async function checkRobots(
  outDir: string,
  input: { siteUrl: string; urls: string[]; sitemapUrl: string },
): Promise<ValidatorResult> {
  const robots = robotsParser(`${input.siteUrl}/robots.txt`, await readFile(join(outDir, 'robots.txt'), 'utf8'))
  const errors = input.urls.filter((url) => !robots.isAllowed(url, 'Googlebot')).map((url) => `disallowed: ${url}`)
  if (robots.getSitemaps().join() !== input.sitemapUrl) errors.push(`Sitemap: ${robots.getSitemaps().join()}`)
  return { checked: input.urls.length, errors }
}
