/**
 * Pure: `sitemap.xml` (indexable pages with hreflang alternates) and `robots.txt`.
 * Without `baseUrl` there is no sitemap: the protocol takes absolute URLs only (a `<loc>/pl/o-nas</loc>` fails
 * its schema and search engines), and the build report says so.
 */

import { isNoIndexPage } from '../../runtime/head.js'
import { pageUrls } from '../../runtime/page-urls.js'
import type { PublicSiteInfo } from '../../shared/contract.js'
import { escapeHtml } from '../../shared/escape.js'
import { SITEMAP_FILE, sitemapPartFile } from '../../shared/layout.js'
import type { PageData } from '../../shared/types.js'
import { toSiteUrl } from '../../shared/url.js'
import { compareStrings } from '../../shared/values.js'
import type { PageFact } from '../types.js'

/** The sitemap protocol's limit of URLs per file; past it, an index points at numbered files. */
export const SITEMAP_MAX_URLS = 50_000
/** The protocol's (and Google's) limit of one uncompressed sitemap file: 50 MB, 52,428,800 bytes. */
export const SITEMAP_MAX_BYTES = 52_428_800

/** Per-file limits of planSitemaps (tests lower them). */
export interface SitemapLimits {
  /** @default SITEMAP_MAX_URLS */
  maxUrls?: number
  /** @default SITEMAP_MAX_BYTES */
  maxBytes?: number
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
const byPath = (a: { path: string }, b: { path: string }) => compareStrings(a.path, b.path)

/**
 * The small facts the sitemap needs of a page; its data can then be dropped. Its alternates
 * and canonical are the ones of its head tags (src/runtime/page-urls.ts).
 */
export function toPageFact(options: {
  path: string
  locale: string
  page: PageData
  site: Pick<PublicSiteInfo, 'baseUrl' | 'i18n'>
}): PageFact {
  const { path, locale, page, site } = options
  const urls = pageUrls({ path, page, site })
  const fact: PageFact = { path, locale, noIndex: isNoIndexPage(page), alternates: urls.alternates }
  if (urls.elsewhere !== undefined) fact.canonical = urls.elsewhere
  return fact
}

function renderUrl(fact: PageFact, indexable: ReadonlySet<string>, baseUrl: string | undefined): string {
  const alternates = fact.alternates
    .filter((a) => indexable.has(a.path))
    .sort((a, b) => (a.hreflang < b.hreflang ? -1 : a.hreflang > b.hreflang ? 1 : 0))
  const others = alternates.some((a) => a.path !== fact.path)
  const links = others
    ? alternates
        .map(
          (a) =>
            `\n    <xhtml:link rel="alternate" hreflang="${escapeHtml(a.hreflang)}" href="${escapeHtml(toSiteUrl(a.path, baseUrl))}"/>`,
        )
        .join('')
    : ''
  return `  <url>\n    <loc>${escapeHtml(toSiteUrl(fact.path, baseUrl))}</loc>${links}\n  </url>\n`
}

/** A sitemap file as a sequence of text parts, so that a site of any size is written without one huge string. */
export interface SitemapFile {
  path: string
  parts(): Iterable<string>
}

const URLSET_HEAD = `${XML_HEAD}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n`
const URLSET_TAIL = '</urlset>\n'

/**
 * Splits sorted pages into files within both limits. Each entry is rendered once here only to
 * be measured (and dropped): holding 50 MB of text per file would cost the build its memory.
 */
function splitPages(
  pages: readonly PageFact[],
  render: (fact: PageFact) => string,
  limits: Required<SitemapLimits>,
): PageFact[][] {
  const frame = Buffer.byteLength(URLSET_HEAD) + Buffer.byteLength(URLSET_TAIL)
  const chunks: PageFact[][] = [[]]
  let bytes = frame
  for (const fact of pages) {
    const size = Buffer.byteLength(render(fact))
    const chunk = chunks[chunks.length - 1]!
    if (chunk.length > 0 && (chunk.length >= limits.maxUrls || bytes + size > limits.maxBytes)) {
      chunks.push([fact])
      bytes = frame + size
    } else {
      chunk.push(fact)
      bytes += size
    }
  }
  return chunks
}

/**
 * The sitemap files: `sitemap.xml` alone, or (past SITEMAP_MAX_URLS pages or SITEMAP_MAX_BYTES)
 * an index `sitemap.xml` plus `sitemap-1.xml`, `sitemap-2.xml`, …. Pages with robots noIndex are
 * left out, and so are pages whose canonical names another page (a sitemap lists canonical URLs
 * only), and alternates pointing at either. None without `baseUrl`.
 */
export function planSitemaps(
  facts: Iterable<PageFact>,
  baseUrl: string | undefined,
  limits: SitemapLimits = {},
): SitemapFile[] {
  if (!baseUrl) return []
  const pages: PageFact[] = []
  for (const fact of facts) if (!fact.noIndex && fact.canonical === undefined) pages.push(fact)
  // the protocol wants at least one <url>: a site with no indexable page (staging) gets no sitemap
  if (pages.length === 0) return []
  pages.sort(byPath)
  const indexable = new Set(pages.map((p) => p.path))
  const render = (fact: PageFact) => renderUrl(fact, indexable, baseUrl)
  const chunks = splitPages(pages, render, {
    maxUrls: limits.maxUrls ?? SITEMAP_MAX_URLS,
    maxBytes: limits.maxBytes ?? SITEMAP_MAX_BYTES,
  })
  const urlset = (chunk: PageFact[]) =>
    function* (): Iterable<string> {
      yield URLSET_HEAD
      for (const fact of chunk) yield render(fact)
      yield URLSET_TAIL
    }
  if (chunks.length === 1) return [{ path: SITEMAP_FILE, parts: urlset(chunks[0]!) }]
  const files = chunks.map((chunk, i) => ({ path: sitemapPartFile(i + 1), parts: urlset(chunk) }))
  const index =
    `${XML_HEAD}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
    files.map((f) => `  <sitemap><loc>${escapeHtml(toSiteUrl(`/${f.path}`, baseUrl))}</loc></sitemap>\n`).join('') +
    '</sitemapindex>\n'
  return [{ path: SITEMAP_FILE, parts: () => [index] }, ...files]
}

/**
 * The sitemap files of an output whose file hashes `hashOf` gives: `sitemap.xml` and the numbered
 * files after it; undefined when it has no `sitemap.xml`.
 */
export function sitemapFilesOf(hashOf: (path: string) => string | undefined): string[] | undefined {
  if (hashOf(SITEMAP_FILE) === undefined) return undefined
  const files = [SITEMAP_FILE]
  for (let n = 1; hashOf(sitemapPartFile(n)) !== undefined; n++) files.push(sitemapPartFile(n))
  return files
}

/** The sitemap files as whole strings (small sites, tests). */
export const renderSitemaps = (
  facts: readonly PageFact[],
  baseUrl: string | undefined,
  limits: SitemapLimits = {},
): Array<{ path: string; contents: string }> =>
  planSitemaps(facts, baseUrl, limits).map((file) => ({ path: file.path, contents: [...file.parts()].join('') }))

/**
 * `robots.txt`: the project's own `public/robots.txt` when it has one (kept as
 * it is), else allow everything; a `Sitemap:` line is added unless one is there
 * or the build wrote no sitemap (none without `baseUrl`).
 */
export function renderRobots(baseUrl: string | undefined, existing?: string, hasSitemap = true): string {
  const base = existing ?? 'User-agent: *\nAllow: /\n'
  if (!baseUrl || !hasSitemap || /^\s*sitemap\s*:/im.test(base)) return base
  return `${base.replace(/\n*$/, '\n')}\nSitemap: ${toSiteUrl(`/${SITEMAP_FILE}`, baseUrl)}\n`
}
