/**
 * The trust boundary: API data is checked and sanitised here, once, in Node.
 * Wrong types are repaired or dropped and reported in `problems`; rich text goes
 * through sanitize-html; unsafe links are removed. Render and payloads only ever
 * see prepared data. Plain text is not escaped here: React escapes it at render.
 */
import type { DataProblem } from '../shared/contract.js'
import type { ContextMenu, InitialData, PageData, PageMeta, PageSeo } from '../shared/types.js'
import { prepareContent, toId } from './prepare-element.js'
import {
  cleanRecord,
  cleanValue,
  createProblems,
  isRecord,
  type Problems,
  prepareFile,
  prepareFiles,
  prepareLanguages,
  prepareLink,
  prepareNav,
  safeUrl,
  typeName,
  withoutForbiddenText,
} from './prepare-values.js'

const META_TEXT_KEYS = [
  'title',
  'subtitle',
  'abstract',
  'description',
  'keywords',
  'author',
  'authorEmail',
  'ogTitle',
  'ogDescription',
  'twitterTitle',
  'twitterDescription',
  'twitterCard',
] as const

function prepareMeta(value: unknown, problems: Problems): PageMeta {
  if (!isRecord(value)) {
    if (value !== undefined) problems.push(`meta is ${value === null ? 'null' : typeof value}, used {}`)
    return {}
  }
  const meta = cleanRecord(value, 'meta', problems) as unknown as PageMeta
  for (const key of META_TEXT_KEYS) {
    if (meta[key] !== undefined && typeof meta[key] !== 'string') {
      problems.push(`meta.${key}: not a string, dropped`)
      delete meta[key]
    }
  }
  const robots = isRecord(value.robots) ? value.robots : {}
  meta.robots = {
    noIndex: robots.noIndex === true || robots.noIndex === 1,
    noFollow: robots.noFollow === true || robots.noFollow === 1,
  }
  meta.ogImage = prepareFile(value.ogImage, 'meta.ogImage', problems)
  meta.twitterImage = prepareFile(value.twitterImage, 'meta.twitterImage', problems)
  meta.canonical = prepareLink(value.canonical, 'meta.canonical', problems)
  return meta
}

/** The problems of a run, each message saying whose data it is (`page 12: …`). */
const prefixed = (problems: Problems, prefix: string): DataProblem[] =>
  problems.items.map((problem) => ({ ...problem, message: `${prefix}${problem.message}` }))

/** `seo.meta` tags whose content is a URL: `og:image`, `og:image:secure_url`, `twitter:image`, `og:video:url`… */
const URL_TAG_RE = /^(og|twitter):(image|video|audio|url|player)(:(url|secure_url|src|stream))?$/i

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

function prepareSeo(value: unknown, problems: Problems): PageSeo | undefined {
  if (value === undefined || value === null) return undefined
  if (!isRecord(value)) {
    problems.push('seo: not an object, dropped')
    return undefined
  }
  const meta = (Array.isArray(value.meta) ? value.meta : []).filter(isRecord).flatMap((item) => {
    // http-equiv tags (refresh, set-cookie, content-security-policy) act on the browser: content may not set them.
    if (item['http-equiv'] !== undefined) {
      problems.push(
        `seo.meta: http-equiv ${JSON.stringify(typeof item['http-equiv'] === 'string' ? item['http-equiv'].slice(0, 40) : typeof item['http-equiv'])} refused`,
        'UNSAFE_MARKUP',
      )
      return []
    }
    const key = (['name', 'property'] as const).find((k) => typeof item[k] === 'string' && item[k] !== '')
    const tag = key ? (item[key] as string) : ''
    // A tag whose content is a URL (the share image, a video…) is a link like any other: no script URL in it.
    const content =
      typeof item.content === 'string' && URL_TAG_RE.test(tag)
        ? safeUrl(item.content, `seo.meta ${tag}`, problems) || undefined
        : str(item.content)
    return content !== undefined && key ? [{ [key]: tag, content }] : []
  })
  const link = (Array.isArray(value.link) ? value.link : []).filter(isRecord).flatMap((item) => {
    const href = typeof item.href === 'string' ? safeUrl(item.href, 'seo.link', problems) : ''
    const rel = str(item.rel)
    return href && rel ? [{ rel, href, ...(str(item.hreflang) ? { hreflang: item.hreflang as string } : {}) }] : []
  })
  const attrs = (v: unknown): Record<string, string | null> =>
    Object.fromEntries(
      Object.entries(isRecord(v) ? v : {}).filter(
        ([k, a]) => k !== '__proto__' && (typeof a === 'string' || a === null),
      ),
    ) as Record<string, string | null>
  return {
    title: str(value.title) ?? null,
    meta,
    link,
    htmlAttrs: attrs(value.htmlAttrs),
    bodyAttrs: attrs(value.bodyAttrs) as PageSeo['bodyAttrs'],
  }
}

function prepareContextMenu(value: unknown, problems: Problems): ContextMenu | undefined {
  if (value === undefined || value === null) return undefined
  if (!isRecord(value)) {
    problems.push('contextMenu: not an object, dropped')
    return undefined
  }
  const menu: ContextMenu = {
    navigation: prepareNav(value.navigation, 'contextMenu.navigation', problems, { dropEmptyTitles: true }),
    iconButtons: prepareNav(value.iconButtons, 'contextMenu.iconButtons', problems, { titleOptional: true }),
  }
  const extra = value.additionalLink
  if (isRecord(extra) && typeof extra.href !== 'string' && typeof extra.link === 'string') {
    menu.additionalLink = prepareNav([extra], 'contextMenu.additionalLink', problems)[0] ?? ''
  } else {
    menu.additionalLink = prepareLink(extra, 'contextMenu.additionalLink', problems)
  }
  if (typeof value.iconButtonsText === 'string') menu.iconButtonsText = value.iconButtonsText
  return menu
}

/** The page fields preparePage prepares itself; cleanRecord cleans the others. */
const PAGE_OWN_KEYS: ReadonlySet<string> = new Set([
  'id',
  'meta',
  'seo',
  'appearance',
  'content',
  'i18n',
  'contextMenu',
  'breadcrumbs',
  'media',
])

/** A page response, or `page: null` when the value is not a page (e.g. a bare error body). */
export function preparePage(answer: unknown): { page: PageData | null; problems: DataProblem[] } {
  const raw = withoutForbiddenText(answer)
  if (!isRecord(raw)) return { page: null, problems: [{ kind: 'INVALID_DATA', message: 'page data is not an object' }] }
  const id = toId(raw.id)
  if (id === undefined) {
    // a redirect record whose redirectUrl is empty or no string: readPageAnswer took it for a page
    const target = raw.redirectUrl
    const redirect =
      'redirectUrl' in raw
        ? `redirectUrl is ${target === '' ? '""' : typeName(target)}, not a URL to redirect to, and `
        : ''
    return { page: null, problems: [{ kind: 'INVALID_DATA', message: `${redirect}page data has no numeric id` }] }
  }
  const problems = createProblems()
  const { meta, seo, appearance, content, i18n, contextMenu, breadcrumbs, media } = raw
  const page = cleanRecord(raw, 'page', problems, 0, PAGE_OWN_KEYS) as unknown as PageData
  page.id = id
  page.meta = prepareMeta(meta, problems)
  const preparedSeo = prepareSeo(seo, problems)
  if (preparedSeo) page.seo = preparedSeo
  if (!isRecord(appearance) && appearance !== undefined) problems.push('appearance: not an object, used {}')
  page.appearance = isRecord(appearance)
    ? (cleanRecord(appearance, 'appearance', problems) as PageData['appearance'])
    : {}
  for (const key of ['layout', 'backendLayout'] as const) {
    if (page.appearance[key] !== undefined && typeof page.appearance[key] !== 'string') delete page.appearance[key]
  }
  page.content = prepareContent(content, problems)
  if (i18n !== undefined) page.i18n = prepareLanguages(i18n, 'i18n', problems)
  const menu = prepareContextMenu(contextMenu, problems)
  if (menu) page.contextMenu = menu
  page.breadcrumbs = prepareNav(breadcrumbs, 'breadcrumbs', problems)
  page.media = prepareFiles(media, 'media', problems)
  for (const key of ['type', 'slug', 'categories'] as const) {
    if (page[key] !== undefined && typeof page[key] !== 'string') delete page[key]
  }
  return { page, problems: prefixed(problems, `page ${id}: `) }
}

const NAV_KEYS = ['featuredNavigation', 'minorNavigation', 'socialMenu', 'footerNavigation'] as const
const NAV_KEY_SET: ReadonlySet<string> = new Set(NAV_KEYS)

function prepareFooterContact(value: unknown, problems: Problems): InitialData['footerContactData'] | undefined {
  if (value === undefined || value === null) return undefined
  if (!isRecord(value)) {
    problems.push('footerContactData: not an object, dropped')
    return undefined
  }
  const data = cleanRecord(value, 'footerContactData', problems)
  const content = isRecord(data.content) ? { ...data.content } : {}
  if (content.items !== undefined && !Array.isArray(content.items)) {
    problems.push('footerContactData.content.items: not a list, dropped')
    delete content.items
  }
  return {
    ...data,
    id: toId(data.id) ?? 0,
    type: typeof data.type === 'string' ? data.type : 'text',
    content,
  } as InitialData['footerContactData']
}

/** Initial data: navigation, languages and the project's footer and menu keys. */
export function prepareInitialData(answer: unknown): { data: InitialData; problems: DataProblem[] } {
  const raw = withoutForbiddenText(answer)
  if (!isRecord(raw))
    return {
      data: { navigation: [], i18n: [] },
      problems: [{ kind: 'INVALID_DATA', message: 'initial data is not an object, used empty navigation' }],
    }
  const problems = createProblems()
  const { navigation, i18n, footerContactData, backendEditor, ...rest } = raw
  // what comes back is a copy of `rest`, this function's own to change; the menus are prepareNav's (below), which
  // reports their problems itself
  const data = cleanValue(rest, 'initialData', problems, 0, NAV_KEY_SET) as InitialData
  data.navigation = prepareNav(navigation, 'navigation', problems)
  data.i18n = prepareLanguages(i18n ?? [], 'i18n', problems)
  for (const key of NAV_KEYS) {
    if (raw[key] === undefined) continue
    data[key] = prepareNav(raw[key], key, problems, { titleOptional: key === 'socialMenu' })
  }
  const contact = prepareFooterContact(footerContactData, problems)
  if (contact) data.footerContactData = contact
  if (
    isRecord(backendEditor) &&
    typeof backendEditor.record === 'string' &&
    /^https?:\/\//i.test(backendEditor.record)
  ) {
    data.backendEditor = {
      record: backendEditor.record,
      ...(typeof backendEditor.page === 'string' ? { page: backendEditor.page } : {}),
    }
  }
  return { data, problems: prefixed(problems, 'initial data: ') }
}
