/**
 * One generated page (contract 3.2) with eight content elements of assorted
 * standard types. Deterministic: the same index gives the same page, and every
 * language gets the same structure with its own words and paths.
 */
import type { ContentElement, FileRef, LanguageEntry, NavEntry, PageData } from '../shared/types.js'
import { childrenOf, type GeneratedSite, isLanding, landingOf, sectionCount, sectionOf } from './generator-site.js'
import type { GeneratedTexts } from './generator-text.js'
import { type DemoLanguage, ORIGIN_TOKEN } from './types.js'

export const IMAGES = [
  'custom-software',
  'cloud-migration',
  'data-analytics',
  'support',
  'logistics-dashboard',
  'team-workshop',
  'berlin-office',
  'banking-app',
]
export const DOCUMENT = 'fileadmin/documents/amberline-company-profile.pdf'

/** mulberry32: a tiny seeded PRNG, so that "random" links are the same on every run. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function fileRef(path: string, alternative: string, width = 1200, height = 800): FileRef {
  const filename = path.slice(path.lastIndexOf('/') + 1)
  const extension = filename.slice(filename.lastIndexOf('.') + 1)
  const mimeType = extension === 'pdf' ? 'application/pdf' : 'image/svg+xml'
  return {
    publicUrl: `${ORIGIN_TOKEN}/${path}`,
    properties: {
      title: null,
      alternative,
      description: null,
      link: null,
      mimeType,
      type: extension === 'pdf' ? 'application' : 'image',
      filename,
      originalUrl: `/${path}`,
      size: '1 KB',
      dimensions: { width, height },
      cropDimensions: { width, height },
      crop: null,
      autoplay: null,
      extension,
    },
  }
}

export const gallery = (files: FileRef[], horizontal: string, vertical: string) => ({
  position: { horizontal, vertical, noWrap: vertical === 'intext' },
  width: vertical === 'intext' ? 300 : 600,
  count: { files: files.length, columns: files.length, rows: 1 },
  columnSpacing: 10,
  border: { enabled: false, width: 2, padding: 0 },
  rows: { '1': { columns: Object.fromEntries(files.map((file, k) => [String(k + 1), file])) } },
})

export const header = (text: string, headerLayout = 2, subheader = '') => ({
  header: text,
  subheader,
  headerLayout,
  headerPosition: '',
  headerLink: '',
})

export function buildGeneratedPage(site: GeneratedSite, language: DemoLanguage, index: number): PageData {
  const texts = site.textsOf(language)
  const random = createRandom(index * 7919 + 17)
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T
  const path = (i: number) => site.pathOf(language, i)
  const nav = (i: number, extra: Partial<NavEntry> = {}): NavEntry =>
    navEntry(site, language, i, { hasSubpages: i === 0 || isLanding(i) ? 1 : 0, ...extra })
  const anchor = (i: number) => `<a href="${path(i)}">${site.titleOf(language, i)}</a>`
  const last = site.count - 1
  const section = index === 0 ? 0 : sectionOf(index)
  const paragraph = () => `<p>${pick(texts.sentences)} ${pick(texts.sentences)}</p>`
  const image = (k: number) => `fileadmin/images/${IMAGES[(index + k) % IMAGES.length]}.svg`
  const title = site.titleOf(language, index)

  const elements: Array<[string, Record<string, unknown>, string?]> = [
    ['header', header(title, 1, index === 0 ? '' : site.titleOf(language, landingOf(section)))],
    [
      'text',
      {
        ...header(''),
        bodytext: `${paragraph()}<p>${texts.links({
          previous: anchor(index === 0 ? last : index - 1),
          next: anchor(index === last ? 0 : index + 1),
          section: anchor(Math.min(landingOf(section), last)),
          other: anchor(Math.floor(random() * site.count)),
          home: path(0),
        })}</p>`,
      },
    ],
    [
      'textpic',
      {
        ...header(pick(texts.topics)),
        enlargeImageOnClick: false,
        bodytext: paragraph(),
        gallery: gallery([fileRef(image(0), title)], 'right', 'intext'),
      },
    ],
    ['bullets', bullets(index % 3, texts.facts, texts.sentences, texts.headers.bullets)],
    [
      'table',
      {
        ...header(texts.table.header),
        tableCaption: texts.table.caption,
        cols: 3,
        tableHeaderPosition: 1 + (index % 2),
        tableClass: '',
        tableTfoot: '0',
        bodytext: [
          [...texts.table.columns],
          ...[0, 1, 2].map((k) => [
            pick(texts.topics),
            `${10 + ((index + k) % 50)}%`,
            `${60 + ((index * 3 + k) % 40)}%`,
          ]),
        ],
      },
    ],
    [
      'textmedia',
      {
        ...header(texts.headers.gallery),
        enlargeImageOnClick: true,
        bodytext: paragraph(),
        gallery: gallery([fileRef(image(1), title), fileRef(image(2), title)], 'center', 'below'),
      },
    ],
    // A section's landing page lists all its pages; the navigation lists only the sections (see sectionNav).
    index === 0
      ? [
          'menu_pages',
          { ...header(title), menu: Array.from({ length: sectionCount(site.count) }, (_, s) => nav(landingOf(s))) },
        ]
      : isLanding(index)
        ? ['menu_subpages', { ...header(title), menu: childrenOf(section, site.count).map((i) => nav(i)) }]
        : [
            'menu_pages',
            { ...header(texts.headers.related), menu: [1, 2, 3].map((k) => nav((index + k * 37) % site.count)) },
          ],
    ...lastElement(index, texts.headers, fileRef(DOCUMENT, title, 0, 0)),
  ]
  const content: ContentElement[] = elements.map(([type, body, frameClass], k) => ({
    id: language.languageId * 1_000_000 + index * 10 + k + 1,
    type,
    colPos: 0,
    categories: '',
    appearance: { layout: 'default', frameClass: frameClass ?? 'default', spaceBefore: '', spaceAfter: '' },
    content: body,
  }))

  const crumbs = index === 0 ? [0] : isLanding(index) ? [0, index] : [0, landingOf(section), index]
  const description = `${title}. ${texts.sentences[index % texts.sentences.length] ?? ''}`
  return {
    id: index + 1,
    type: 'Standard',
    slug: path(index).slice(language.base.length - 1) || '/',
    media: [],
    meta: {
      title,
      subtitle: '',
      abstract: description,
      description,
      keywords: '',
      canonical: '',
      robots: { noIndex: false, noFollow: false },
      author: '',
      authorEmail: '',
      ogTitle: title,
      ogDescription: description,
      ogImage: null,
      twitterTitle: title,
      twitterDescription: description,
      twitterCard: 'summary',
      twitterImage: null,
    },
    categories: '',
    breadcrumbs: crumbs.map((i) => nav(i, { active: 1, current: i === index ? 1 : 0 })),
    appearance: { layout: 'layout-0', backendLayout: 'default' },
    content: { colPos0: content },
    i18n: site.languages.map((other) => languageEntry(other, site.pathOf(other, index), other === language)),
  }
}

function bullets(bulletsType: number, facts: GeneratedTexts['facts'], sentences: readonly string[], text: string) {
  const bodytext = bulletsType === 2 ? facts.map(([term, value]) => [term, value]) : sentences.slice(0, 4)
  return { ...header(text), bulletsType, bodytext }
}

function lastElement(
  index: number,
  headers: { downloads: string; hours: string },
  document: FileRef,
): Array<[string, Record<string, unknown>, string?]> {
  switch (index % 3) {
    case 0:
      return [
        [
          'uploads',
          {
            ...header(headers.downloads),
            media: [document],
            target: '',
            displayFileSizeInformation: '1',
            displayDescription: '0',
            displayInformation: '1',
          },
        ],
      ]
    case 1:
      return [
        ['html', { header: headers.hours, bodytext: '<div class="office-hours"><strong>8:00–17:00</strong></div>' }],
      ]
    default:
      return [['div', { header: '' }, 'ruler-before']]
  }
}

/** The navigation entry of generated page `i`: not active, no subpages unless `extra` says otherwise. */
export function navEntry(
  site: GeneratedSite,
  language: DemoLanguage,
  i: number,
  extra: Partial<NavEntry> = {},
): NavEntry {
  return {
    title: site.titleOf(language, i),
    link: site.pathOf(language, i),
    target: '',
    active: 0,
    current: 0,
    spacer: 0,
    hasSubpages: 0,
    ...extra,
  }
}

export function languageEntry(language: DemoLanguage, link: string, active: boolean): LanguageEntry {
  const { base: _base, ...entry } = language
  return { ...entry, link, active: active ? 1 : 0, current: 0, available: 1 }
}

/**
 * A section's navigation entry. The header shows the first sections, and only the first section
 * shows its first pages as a second level: like real sites, the header does not list thousands of
 * pages (a header of every page would make each page's size grow with the site). Every page is
 * reached through the home page's menu of sections and its landing page's `menu_subpages` instead.
 */
export const NAV_CHILDREN_SHOWN = 5
/** Sections shown in the header; the home page's menu lists them all. */
export const NAV_SECTIONS_SHOWN = 12

export function sectionNav(site: GeneratedSite, language: DemoLanguage, section: number): NavEntry {
  const landing = landingOf(section)
  const entry = (i: number, hasSubpages: 0 | 1): NavEntry => navEntry(site, language, i, { hasSubpages })
  const children = childrenOf(section, site.count)
  const shown = section === 0 ? children.slice(0, NAV_CHILDREN_SHOWN) : []
  return {
    ...entry(landing, children.length ? 1 : 0),
    ...(shown.length ? { children: shown.map((i) => entry(i, 0)) } : {}),
  }
}
