/**
 * Head tags of a page (defaults in shared/client-constants.ts), and the attributes of `<html>`
 * and `<body>`. Pure: the server writes them into the document, the browser client replaces
 * the tags marked `data-site-head` and the attributes after a navigation. The `seo` block
 * (headless 4.x) wins over `meta` key by key, but for `og:url`, which always names the canonical.
 */

import { DEFAULT_OG_TYPE, DEFAULT_TWITTER_CARD } from '../shared/client-constants.js'
import type { HeadTag, RenderState } from '../shared/contract.js'
import { isSafeHref } from '../shared/links.js'
import type { LanguageEntry, PageData } from '../shared/types.js'
import { toSiteUrl } from '../shared/url.js'
import { isLanguageTag } from '../shared/values.js'
import { classToken, isRecord } from './element.js'
import { ENGINE_TEXTS } from './engine-texts.js'
import { langOf, pageLanguages } from './languages.js'
import { type PageUrls, pageUrls } from './page-urls.js'
import { pickLocale } from './texts.js'

/** Attribute that marks the tags the client may replace. */
export const HEAD_MARK = 'data-site-head'

// No http-equiv: it acts on the browser (refresh, set-cookie), and content may not do that.
type MetaAttr = 'name' | 'property'
const META_ATTRS: readonly MetaAttr[] = ['name', 'property']

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')
const fileUrl = (file: unknown): string => (isRecord(file) && isSafeHref(file.publicUrl) ? file.publicUrl.trim() : '')
const tag = (name: HeadTag['tag'], attrs: Record<string, string>, children?: string): HeadTag =>
  children === undefined
    ? { tag: name, attrs: { ...attrs, [HEAD_MARK]: '' } }
    : { tag: name, attrs: { ...attrs, [HEAD_MARK]: '' }, children }

/** `noindex, nofollow` from the robots flags (lower case, as crawlers document them); '' when neither. */
export function robotsContent(robots: unknown, forceNoIndex = false): string {
  const flags = isRecord(robots) ? robots : {}
  const values = [
    (forceNoIndex || flags.noIndex === true || flags.noIndex === 1) && 'noindex',
    (flags.noFollow === true || flags.noFollow === 1) && 'nofollow',
  ]
  return values.filter(Boolean).join(', ')
}

/**
 * An item of the CMS's `seo.meta` as a head tag: its attribute, key and content; undefined for an empty one.
 * A `name` is read in lower case, as HTML reads it in any case (`ROBOTS` is the robots tag).
 */
function seoMetaItem(item: unknown): { attr: MetaAttr; key: string; content: string } | undefined {
  if (!isRecord(item)) return undefined
  const attr = META_ATTRS.find((a) => text(item[a]) !== '')
  const content = text(item.content)
  if (!attr || content === '') return undefined
  return { attr, key: attr === 'name' ? text(item[attr]).toLowerCase() : text(item[attr]), content }
}

const seoMetaItems = (page: PageData) =>
  (Array.isArray(page.seo?.meta) ? page.seo.meta : []).map(seoMetaItem).filter((item) => item !== undefined)

/**
 * Whether the page's head says `noindex` (or `none`): the `seo` block's robots tag when it has
 * one (TypoScript `page.meta.robots` reaches only that block), else the `meta.robots` flags.
 * The sitemap asks here, so that it never lists a page its own head keeps out of the index.
 */
export function isNoIndexPage(page: PageData): boolean {
  const fromSeo = seoMetaItems(page).filter((item) => item.attr === 'name' && item.key === 'robots')
  const robots = fromSeo.length > 0 ? fromSeo.map((item) => item.content).join(', ') : robotsContent(page.meta?.robots)
  return /\b(noindex|none)\b/i.test(robots)
}

/** Canonical and hreflang alternates (page-urls.ts: the same URLs as the sitemap's). */
function linkTags(state: RenderState, urls: PageUrls): HeadTag[] {
  const { baseUrl } = state.site
  const tags: HeadTag[] = urls.canonical ? [tag('link', { rel: 'canonical', href: urls.canonical })] : []
  if (!baseUrl) return tags
  for (const { hreflang, path } of urls.alternates)
    tags.push(tag('link', { rel: 'alternate', hreflang, href: toSiteUrl(path, baseUrl) }))
  return tags
}

function metaTags(page: PageData, options: { isError: boolean; ogUrl: string }): HeadTag[] {
  const { isError } = options
  const m = isRecord(page.meta) ? page.meta : {}
  const metas = new Map<string, { attr: MetaAttr; key: string; contents: string[] }>()
  const set = (attr: MetaAttr, key: string, value: string) => {
    if (value !== '') metas.set(`${attr}:${key}`, { attr, key, contents: [value] })
  }
  set('name', 'description', text(m.description))
  set('name', 'robots', robotsContent(m.robots))
  set('property', 'og:title', text(m.ogTitle) || text(m.title))
  set('property', 'og:description', text(m.ogDescription) || text(m.description))
  set('property', 'og:image', fileUrl(m.ogImage))
  set('property', 'og:type', DEFAULT_OG_TYPE)
  set('name', 'twitter:title', text(m.twitterTitle) || text(m.title))
  set('name', 'twitter:description', text(m.twitterDescription) || text(m.description))
  set('name', 'twitter:image', fileUrl(m.twitterImage) || fileUrl(m.ogImage))
  set('name', 'twitter:card', text(m.twitterCard) || DEFAULT_TWITTER_CARD)
  // Items of one key may repeat (og:image:width…): the seo block replaces the key, keeping all its items.
  const fromSeo = new Set<string>()
  for (const { attr, key, content } of seoMetaItems(page)) {
    const id = `${attr}:${key}`
    if (!fromSeo.has(id)) metas.set(id, { attr, key, contents: [] })
    fromSeo.add(id)
    metas.get(id)?.contents.push(content)
  }
  // og:url names the page as its canonical does, whatever the CMS's seo block says.
  if (/^https?:\/\//i.test(options.ogUrl))
    metas.set('property:og:url', { attr: 'property', key: 'og:url', contents: [options.ogUrl] })
  else metas.delete('property:og:url')
  if (isError) {
    const robots = metas.get('name:robots')?.contents[0] ?? ''
    if (!/noindex/i.test(robots)) set('name', 'robots', robots ? `noindex, ${robots}` : 'noindex')
  }
  return [...metas.values()].flatMap(({ attr, key, contents }) =>
    contents.map((content) => tag('meta', { [attr]: key, content })),
  )
}

/** The managed head tags of a render state: title, meta (description, robots, Open Graph, Twitter), canonical, hreflang. */
export function buildHead(state: RenderState): HeadTag[] {
  const { page } = state
  const isError = state.status >= 400
  if (!page) {
    const texts = pickLocale(ENGINE_TEXTS, state.locale, state.site.i18n.default)
    const notFound = state.status === 404
    const title = notFound ? texts.notFoundTitle : texts.errorTitle(state.status)
    const description = notFound ? [tag('meta', { name: 'description', content: texts.notFoundDescription })] : []
    return [tag('title', {}, title), ...description, tag('meta', { name: 'robots', content: 'noindex' })]
  }
  // Every document needs a title (WCAG 2.4.2): the page's navigation title or its path when meta has none.
  const crumbs = Array.isArray(page.breadcrumbs) ? page.breadcrumbs : []
  const title =
    text(page.seo?.title) || text(page.meta?.title) || text(crumbs[crumbs.length - 1]?.title) || decodeURI(state.path)
  if (isError) return [tag('title', {}, title), ...metaTags(page, { isError, ogUrl: '' })]
  const urls = pageUrls({ path: state.path, page, site: state.site })
  return [tag('title', {}, title), ...metaTags(page, { isError, ogUrl: urls.canonical }), ...linkTags(state, urls)]
}

/** `<body class>`: `pid-<id> layout-<layout>`; `pid-0 layout-default` for an error without page. */
export function getBodyClass(state: Pick<RenderState, 'page'>): string {
  const { page } = state
  if (!page) return 'pid-0 layout-default'
  return `pid-${classToken(page.id, '0')} layout-${classToken(page.appearance?.layout, 'default')}`
}

/** The entry of the current locale: by language code (`twoLetterIsoCode`), else the one marked active. */
export function currentLanguage(
  state: Pick<RenderState, 'page' | 'initialData' | 'site' | 'locale'>,
): LanguageEntry | undefined {
  const entries = pageLanguages(state)
  const lang = langOf(state.locale)
  return (
    entries.find((entry) => entry.twoLetterIsoCode.toLowerCase() === lang) ??
    entries.find((entry) => Boolean(entry.active))
  )
}

/** `<html lang dir>`: the current language's code and direction (`ltr` unless it says `rtl`). */
export function getHtmlAttrs(state: RenderState): { lang: string; dir: string } {
  const entry = currentLanguage(state)
  const seoLang = state.page?.seo?.htmlAttrs?.lang
  const lang = [entry?.twoLetterIsoCode, seoLang, state.locale].find(isLanguageTag)
  const dir = entry?.direction === 'rtl' || state.page?.seo?.htmlAttrs?.dir === 'rtl' ? 'rtl' : 'ltr'
  return { lang: lang ?? 'en', dir }
}
