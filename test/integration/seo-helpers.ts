/**
 * Reading what search engines read in a built output: the head's canonical, og:url and hreflang
 * alternates of a page, and the URLs and alternates of the sitemap files.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

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
