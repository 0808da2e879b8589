/**
 * The URLs that name a page: its own URL, its canonical (and `og:url`) and its hreflang
 * alternates. The head tags (head.ts) and the sitemap (src/build/output/sitemap.ts) both ask here, so that
 * a page is named by one URL everywhere: the one the static output serves without a redirect,
 * `baseUrl` + the normalised path (`https://example.com/pl`, never `…/pl/` or the CMS's own host).
 */
import type { PublicSiteInfo } from '../shared/contract.js'
import { classifyLink, isSafeHref } from '../shared/links.js'
import { toAsciiUrl } from '../shared/redirect-target.js'
import type { PageData } from '../shared/types.js'
import { toSiteUrl } from '../shared/url.js'
import { isLanguageTag } from '../shared/values.js'
import { isRecord } from './element.js'
import { siteLanguages } from './languages.js'

export interface PageAlternate {
  /** `pl-PL`, the language code, or `x-default` (the default language, languageId 0). */
  hreflang: string
  /** Normalised path of the translation: `/pl/o-nas`. */
  path: string
}

export interface PageUrls {
  /** The page's own URL: `https://example.com/pl` (root-relative without `baseUrl`). */
  self: string
  /** The canonical link: the page's own URL, or the CMS's canonical when that names another page; '' for none. */
  canonical: string
  /** The CMS's canonical when it names another page than this one (kept, and reported by the build). */
  elsewhere?: string
  /** Available translations of the configured locales, one per hreflang, plus `x-default`. */
  alternates: PageAlternate[]
}

type SiteUrlInfo = Pick<PublicSiteInfo, 'baseUrl' | 'i18n'>

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')
const HTTP_URL_RE = /^https?:\/\//i

/**
 * The CMS's hreflang as a language tag: TYPO3 takes any text there, and a locale spelled
 * `pl_PL` is a common one; `pl_PL` -> `pl-PL`, anything else that is no tag -> the language code.
 */
function toHreflang(value: unknown, code: string): string {
  const tag = text(value).replace(/_/g, '-')
  return isLanguageTag(tag) ? tag : code
}

/** The CMS's canonical: the `seo` block's `<link rel=canonical>`, else `meta.canonical` (an href or a link object). */
function cmsCanonical(page: PageData): string {
  const fromSeo = Array.isArray(page.seo?.link)
    ? page.seo.link.find((link) => isRecord(link) && link.rel === 'canonical')
    : undefined
  const canonical = page.meta?.canonical
  const value = text(fromSeo?.href) || (isRecord(canonical) ? text(canonical.href) : text(canonical))
  return isSafeHref(value) && !/^(mailto|tel):/i.test(value) ? value : ''
}

/**
 * The page of this site a CMS link names when its host is ignored: `https://cms.example/pl/` -> `/pl`,
 * `/pl/o-nas/?a=1` -> `/pl/o-nas` with `?a=1`; undefined for anything else (`mailto:`, a file, a bad path).
 * The CMS knows the site under its own host name (staging, a demo), so its host says nothing.
 */
function sitePageOf(href: string): { path: string; search: string } | undefined {
  let pathAndQuery = href
  if (HTTP_URL_RE.test(href)) {
    try {
      const url = new URL(href)
      pathAndQuery = url.pathname + url.search
    } catch {
      return undefined
    }
  }
  const kind = classifyLink(pathAndQuery)
  return kind.type === 'page' ? { path: kind.path, search: kind.search } : undefined
}

/** The path and query of an absolute URL on `baseUrl`'s origin (any case of its host), else undefined. */
function pathOnBaseUrl(href: string, baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined) return undefined
  try {
    const url = new URL(href)
    return url.origin === new URL(baseUrl).origin ? url.pathname + url.search : undefined
  } catch {
    return undefined
  }
}

/**
 * The translations of a page (available entries of the site's locales), named by their site paths; none when
 * the page at `pagePath` is not one of them (a page of a language the site does not list): search engines drop
 * a set of alternates that does not name the page itself.
 */
function pageAlternates(pagePath: string, page: PageData, site: SiteUrlInfo): PageAlternate[] {
  const alternates: PageAlternate[] = []
  const seen = new Set<string>()
  let xDefault: string | undefined
  for (const entry of siteLanguages(page.i18n, site.i18n)) {
    if (!entry.available) continue
    const path = sitePageOf(entry.link)?.path
    if (path === undefined) continue
    if (entry.languageId === 0) xDefault ??= path
    const hreflang = toHreflang(entry.hreflang, entry.twoLetterIsoCode)
    if (seen.has(hreflang)) continue
    seen.add(hreflang)
    alternates.push({ hreflang, path })
  }
  if (!alternates.some((alternate) => alternate.path === pagePath)) return []
  if (xDefault !== undefined) alternates.push({ hreflang: 'x-default', path: xDefault })
  return alternates
}

/**
 * The URLs of the page at `path` (normalised). A CMS canonical that differs from the page's own
 * URL only in host or trailing slash becomes the page's own URL; one that names another page
 * (another path or query) is kept, made absolute on `baseUrl` when it is a path or a URL on `baseUrl`.
 * Example (baseUrl `https://example.com`, path `/pl`): `https://cms.example/pl/` -> `https://example.com/pl`;
 * `/pl/inna` -> `https://example.com/pl/inna`, elsewhere.
 */
export function pageUrls(input: { path: string; page: PageData; site: SiteUrlInfo }): PageUrls {
  const { path, page, site } = input
  const self = toSiteUrl(path, site.baseUrl)
  const alternates = pageAlternates(path, page, site)
  const cms = cmsCanonical(page)
  if (cms === '') return { self, canonical: site.baseUrl ? self : '', alternates }
  const named = sitePageOf(cms)
  if (named?.path === path && named.search === '')
    return { self, canonical: site.baseUrl || !HTTP_URL_RE.test(cms) ? self : cms, alternates }
  const onSite = HTTP_URL_RE.test(cms) ? pathOnBaseUrl(cms, site.baseUrl) : cms
  const kind = onSite === undefined ? undefined : classifyLink(onSite)
  // another site's URL as the CMS spelled it (`https://partner.example/über uns`) is written in ASCII
  const canonical =
    kind?.type === 'page' || kind?.type === 'file'
      ? toSiteUrl(`${kind.path}${kind.search}`, site.baseUrl)
      : kind === undefined
        ? (toAsciiUrl(cms) ?? cms)
        : cms
  return { self, canonical, elsewhere: canonical, alternates }
}
