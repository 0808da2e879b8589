/**
 * A link check over the built demo output: every internal link and asset
 * of every written HTML page resolves to a file in the output folder.
 */
import { existsSync, statSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { matchRedirect, parseRedirects, type RedirectRule } from '../../src/serve/redirects.js'
import { type BuiltSite, REPO_ROOT, startBuiltSite } from '../e2e/helpers/site.js'
import { decodeEntities } from './hostile-helpers.js'

const ATTR_RE = /\s(href|src)="([^"]*)"/g

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => join(e.parentPath, e.name))
}

/**
 * The file a static host answers a URL path with (as `site serve` and common hosts do), following
 * the output's `_redirects` rules first: a link to a redirecting path resolves to its target.
 */
function resolveTarget(outDir: string, pathname: string, rules: readonly RedirectRule[] = []): string | undefined {
  const redirect = matchRedirect(rules, pathname)
  if (redirect)
    return redirect.to.startsWith('/')
      ? resolveTarget(outDir, new URL(redirect.to, 'http://site.test').pathname)
      : redirect.to
  const decoded = decodeURIComponent(pathname)
  const direct = join(outDir, decoded)
  if (existsSync(direct) && statSync(direct).isFile()) return direct
  const index = join(outDir, decoded, 'index.html')
  return existsSync(index) ? index : undefined
}

/** Internal links and assets of every written HTML page that resolve to no file, and how many were checked. */
async function brokenLinks(outDir: string): Promise<{ files: string[]; checked: number; broken: string[] }> {
  const files = await htmlFiles(outDir)
  const redirects = join(outDir, '_redirects')
  const rules = existsSync(redirects) ? parseRedirects(await readFile(redirects, 'utf8')) : []
  const broken: string[] = []
  let checked = 0
  for (const file of files) {
    const html = await readFile(file, 'utf8')
    for (const [, attr, raw] of html.matchAll(ATTR_RE)) {
      const value = decodeEntities(raw!)
      if (!value.startsWith('/') || value.startsWith('//')) continue
      const { pathname } = new URL(value, 'http://site.test')
      checked++
      if (!resolveTarget(outDir, pathname, rules)) broken.push(`${relative(outDir, file)}: ${attr}="${value}"`)
    }
  }
  return { files, checked, broken }
}

describe('link check of the built demo site', () => {
  let site: BuiltSite
  beforeAll(async () => {
    site = await startBuiltSite()
  })
  afterAll(() => site?.close())

  it('resolves every internal link and asset of every page to a file', async () => {
    const { files, checked, broken } = await brokenLinks(site.outDir)
    expect(files.length).toBeGreaterThan(40)
    expect(checked).toBeGreaterThan(500)
    expect(broken).toEqual([])
  })

  it('resolves every asset referenced from the boot data and payloads', async () => {
    const payloads = (await readdir(site.outDir, { recursive: true })).filter((f) => f.endsWith('_payload.json'))
    expect(payloads.length).toBe(site.result.pages.paths.length + (site.result.redirects?.length ?? 0))
    for (const file of payloads) {
      const payload = JSON.parse(await readFile(join(site.outDir, file), 'utf8')) as { initialDataUrl?: string }
      if (payload.initialDataUrl)
        expect(resolveTarget(site.outDir, payload.initialDataUrl), `${file} -> ${payload.initialDataUrl}`).toBeDefined()
    }
  })
})

// The demo templates link every page to fixed paths (templates/texts/<locale>.ts `links`): the generated
// sites must serve them too, or each of their pages links to 404s (and the client's prefetch logs them).
// Their 404 pages are the demo's: what those list must be pages of the generated site.
describe.each([
  ['generated site', { pagesPerLocale: 8 }],
  ['every-kind generated site', { pagesPerLocale: 8, everyKind: true }],
])('link check of the built %s', (_, generate) => {
  let site: BuiltSite
  beforeAll(async () => {
    site = await startBuiltSite(REPO_ROOT, { generate })
  })
  afterAll(() => site?.close())

  it('resolves every internal link and asset of every page to a file', async () => {
    const { files, checked, broken } = await brokenLinks(site.outDir)
    expect(files.length).toBeGreaterThanOrEqual(3 * 8)
    expect(checked).toBeGreaterThan(100)
    expect(broken).toEqual([])
  })
})
