/**
 * One generated page (EXT:headless's page JSON) with eight content elements of assorted
 * standard types. Deterministic: the same index gives the same page, and every
 * language gets the same structure and links with its own words and paths. Its rich text is
 * generated prose (generator-prose.ts) that no other page shares.
 */
import type { ContentElement, FileRef, NavEntry, PageData } from '../shared/types.js'
import { createRandom, DOCUMENT, fileRef, gallery, header, IMAGES, navEntry, pageLanguages } from './generator-parts.js'
import { createProse, type Prose } from './generator-prose.js'
import { childrenOf, type GeneratedSite, isLanding, landingOf, sectionCount, sectionOf } from './generator-site.js'
import { proseWords } from './generator-words.js'
import type { DemoLanguage } from './types.js'

/**
 * The generated page's rich text: prose paragraphs of the text element (each citing one random page,
 * plus one paragraph of links to the page's neighbours) and of each media element (no links). With the
 * navigation, a page of a 1,000-page-a-locale site holds about 55 links and 65 KB of HTML (bench/site.mjs).
 */
const TEXT_PARAGRAPHS = 4
const MEDIA_PARAGRAPHS = 3
const PARAGRAPH_SENTENCES = 5
const BULLETS = 5
const TABLE_ROWS = 5

export function buildGeneratedPage(site: GeneratedSite, language: DemoLanguage, index: number): PageData {
  const texts = site.textsOf(language)
  // One stream per page index, the same in every language: translations share their structure and links.
  const random = createRandom(index * 7919 + 17)
  const prose = createProse(proseWords(language.twoLetterIsoCode), random)
  const path = (i: number) => site.pathOf(language, i)
  const landing = (i: number) => i < site.count && isLanding(i)
  const nav = (i: number, extra: Partial<NavEntry> = {}): NavEntry =>
    navEntry(site, language, i, { hasSubpages: i === 0 || landing(i) ? 1 : 0, ...extra })
  const anchor = (i: number) => `<a href="${path(i)}">${site.titleOf(language, i)}</a>`
  const anchors = (count: number) => Array.from({ length: count }, () => anchor(Math.floor(random() * site.count)))
  const paragraphs = (count: number, links: number) =>
    Array.from({ length: count }, () => prose.paragraph(PARAGRAPH_SENTENCES, anchors(links))).join('')
  const last = site.count - 1
  // The home page and the fixed pages belong to no section.
  const inSection = index > 0 && index < site.count
  const section = inSection ? sectionOf(index) : 0
  const image = (k: number) => `fileadmin/images/${IMAGES[(index + k) % IMAGES.length]}.svg`
  const title = site.titleOf(language, index)
  const neighbours = `<p>${texts.links({
    previous: anchor(index === 0 ? last : index - 1),
    next: anchor(index === last || !site.has(language, index + 1) ? 0 : index + 1),
    section: anchor(Math.min(landingOf(section), last)),
    other: anchor(Math.floor(random() * site.count)),
    home: path(0),
  })}</p>`

  const elements: Array<[string, Record<string, unknown>, string?]> = [
    ['header', header(title, 1, inSection ? site.titleOf(language, landingOf(section)) : '')],
    ['text', { ...header(''), bodytext: `${paragraphs(1, 1)}${neighbours}${paragraphs(TEXT_PARAGRAPHS - 1, 1)}` }],
    [
      'textpic',
      {
        ...header(prose.term()),
        enlargeImageOnClick: false,
        bodytext: paragraphs(MEDIA_PARAGRAPHS, 0),
        gallery: gallery([fileRef(image(0), title)], 'right', 'intext'),
      },
    ],
    ['bullets', bullets(index % 3, prose, texts.headers.bullets)],
    [
      'table',
      {
        ...header(texts.table.header),
        tableCaption: prose.sentence({ markup: false, long: true }),
        cols: 3,
        tableHeaderPosition: 1 + (index % 2),
        tableClass: '',
        tableTfoot: '0',
        bodytext: [
          [...texts.table.columns],
          ...Array.from({ length: TABLE_ROWS }, () => [
            prose.term(),
            `${10 + Math.floor(random() * 50)}%`,
            `${60 + Math.floor(random() * 40)}%`,
          ]),
        ],
      },
    ],
    [
      'textmedia',
      {
        ...header(texts.headers.gallery),
        enlargeImageOnClick: true,
        bodytext: paragraphs(MEDIA_PARAGRAPHS, 0),
        gallery: gallery([fileRef(image(1), title), fileRef(image(2), title)], 'center', 'below'),
      },
    ],
    // A section's landing page lists all its pages; the navigation lists only the sections (see sectionNav).
    index === 0
      ? [
          'menu_pages',
          { ...header(title), menu: Array.from({ length: sectionCount(site.count) }, (_, s) => nav(landingOf(s))) },
        ]
      : landing(index)
        ? ['menu_subpages', { ...header(title), menu: childrenOf(section, site.count).map((i) => nav(i)) }]
        : [
            'menu_pages',
            { ...header(texts.headers.related), menu: [1, 2, 3].map((k) => nav((index + k * 37) % site.count)) },
          ],
    ...lastElement(index, texts.headers, fileRef(DOCUMENT, title, 0, 0), prose),
  ]
  const content: ContentElement[] = elements.map(([type, body, frameClass], k) => ({
    id: language.languageId * 1_000_000 + index * 10 + k + 1,
    type,
    colPos: 0,
    categories: '',
    appearance: { layout: 'default', frameClass: frameClass ?? 'default', spaceBefore: '', spaceAfter: '' },
    content: body,
  }))

  const crumbs = site.crumbsOf(index)
  const description = `${title}. ${prose.sentence({ markup: false, long: true })}`
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
    i18n: pageLanguages(site, language, index),
  }
}

/** Bullets of generated sentences (types 0 and 1) or of generated terms and sentences (type 2). */
function bullets(bulletsType: number, prose: Prose, text: string) {
  const bodytext = Array.from({ length: BULLETS }, () =>
    bulletsType === 2
      ? [prose.term(), prose.sentence({ markup: false, long: true })]
      : prose.sentence({ markup: false, long: true }),
  )
  return { ...header(text), bulletsType, bodytext }
}

function lastElement(
  index: number,
  headers: { downloads: string; hours: string },
  document: FileRef,
  prose: Prose,
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
        [
          'html',
          {
            header: headers.hours,
            bodytext: `<div class="office-hours"><strong>8:00–17:00</strong> ${prose.sentence({ markup: false, long: true })}</div>`,
          },
        ],
      ]
    default:
      return [['div', { header: '' }, 'ruler-before']]
  }
}
