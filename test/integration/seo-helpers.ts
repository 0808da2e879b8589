/**
 * Reading what search engines read in a built output: the head's canonical, og:url and hreflang
 * alternates of a page, and the URLs and alternates of the sitemap files.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { toHtmlFile, toSiteUrl } from '../../src/shared/url.js'

const decode = (text: string): string =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

const attrsOf = (tag: string): Record<string, string> =>
  Object.fromEntries([...tag.matchAll(/([a-zA-Z:-]+)="([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), decode(m[2]!)]))

export interface HeadUrls {
  canonical: string[]
  ogUrl: string[]
  /** hreflang -> href */
  alternates: Record<string, string>
}

/** The URLs a page's head names. */
export function headUrls(html: string): HeadUrls {
  const head = html.slice(0, html.indexOf('</head>'))
  const links = [...head.matchAll(/<link\b[^>]*>/g)].map((m) => attrsOf(m[0]))
  const metas = [...head.matchAll(/<meta\b[^>]*>/g)].map((m) => attrsOf(m[0]))
  return {
    canonical: links.filter((l) => l.rel === 'canonical').map((l) => l.href!),
    ogUrl: metas.filter((m) => m.property === 'og:url').map((m) => m.content!),
    alternates: Object.fromEntries(
      links.filter((l) => l.rel === 'alternate' && l.hreflang).map((l) => [l.hreflang!, l.href!]),
    ),
  }
}

export interface SitemapEntry {
  loc: string
  /** hreflang -> href */
  alternates: Record<string, string>
}

/** The `<url>` entries of `sitemap.xml`, or of every file its index lists (which must be in `outDir`). */
export async function readSitemapEntries(outDir: string, baseUrl: string): Promise<SitemapEntry[]> {
  const top = await readFile(join(outDir, 'sitemap.xml'), 'utf8')
  const files = top.includes('<sitemapindex')
    ? [...top.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => decode(m[1]!).slice(baseUrl.length + 1))
    : ['sitemap.xml']
  const entries: SitemapEntry[] = []
  for (const file of files) {
    const xml = file === 'sitemap.xml' ? top : await readFile(join(outDir, file), 'utf8')
    for (const [, body] of xml.matchAll(/<url>([\s\S]*?)<\/url>/g)) {
      const loc = decode(/<loc>([^<]+)<\/loc>/.exec(body!)![1]!)
      const alternates = Object.fromEntries(
        [...body!.matchAll(/<xhtml:link\b[^>]*>/g)].map((m) => {
          const attrs = attrsOf(m[0])
          return [attrs.hreflang!, attrs.href!]
        }),
      )
      entries.push({ loc, alternates })
    }
  }
  return entries
}

export interface UrlConsistency {
  /** Pages whose canonical, og:url or alternates name them otherwise than by their URL on `siteUrl`. */
  mismatches: string[]
  /** Sitemap entries whose alternates differ from the page's head alternates (those that are in the sitemap). */
  alternateMismatches: string[]
  sitemapUrls: Set<string>
  /** Sitemap entries with alternates, compared with their page's head. */
  alternatesCompared: number
}

/**
 * Each built page's canonical and og:url are its own URL on `siteUrl`, its hreflang
 * alternates are on `siteUrl`, and its sitemap entry names it and its alternates by the same URLs.
 */
export async function checkUrlConsistency(
  outDir: string,
  paths: readonly string[],
  siteUrl: string,
): Promise<UrlConsistency> {
  const sitemap = new Map((await readSitemapEntries(outDir, siteUrl)).map((e) => [e.loc, e]))
  const mismatches: string[] = []
  const alternateMismatches: string[] = []
  let alternatesCompared = 0
  for (const path of paths) {
    const own = toSiteUrl(path, siteUrl)
    const head = headUrls(await readFile(join(outDir, toHtmlFile(path)), 'utf8'))
    if (head.canonical.join() !== own) mismatches.push(`${path}: canonical ${head.canonical.join()}`)
    if (head.ogUrl.join() !== own) mismatches.push(`${path}: og:url ${head.ogUrl.join()}`)
    for (const href of Object.values(head.alternates))
      if (!href.startsWith(`${siteUrl}/`)) mismatches.push(`${path}: alternate ${href}`)
    const entry = sitemap.get(own)
    if (!entry || Object.keys(entry.alternates).length === 0) continue // noindex pages are not in the sitemap
    alternatesCompared++
    // The sitemap lists the alternates that are indexable pages of the build, each as the head names it.
    const indexed = Object.fromEntries(Object.entries(head.alternates).filter(([, href]) => sitemap.has(href)))
    if (JSON.stringify(entry.alternates) !== JSON.stringify(Object.fromEntries(Object.entries(indexed).sort())))
      alternateMismatches.push(`${path}: sitemap ${JSON.stringify(entry.alternates)}, head ${JSON.stringify(indexed)}`)
  }
  return { mismatches, alternateMismatches, sitemapUrls: new Set(sitemap.keys()), alternatesCompared }
}
