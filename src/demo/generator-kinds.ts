/**
 * The every-kind generated site (`generate: { pagesPerLocale, everyKind: true }`): the same
 * paths and titles as the generated site (generator-site.ts), but pages that together use every
 * content type the templates handle, every content header layout (0-6, 100) and position, both
 * backend layouts and both header modes (`headerTransparent`), and menus with every kind of
 * navigation entry (spacer, button label, new window, children at every level). Made for
 * checking page quality (axe, the Nu checker) on content other than the demo's.
 */
import type { ContentElement, InitialData, NavEntry, PageData } from '../shared/types.js'
import { type KindsContext, type KindsElement, kindsCatalogue } from './generator-kinds-elements.js'
import { kindsTexts } from './generator-kinds-text.js'
import { fileRef, gallery, IMAGES, languageEntry, navEntry, pageLanguages } from './generator-parts.js'
import { capitalise } from './generator-prose.js'
import type { GeneratedSite } from './generator-site.js'
import type { DemoLanguage } from './types.js'

/** Content elements after the first on each page. */
const ELEMENTS_PER_PAGE = 7
/** Heading levels in page order: never deeper than one below the one before; 0 is h2, 100 is hidden. */
const HEADER_LAYOUTS = [2, 3, 4, 5, 6, 0, 100] as const
const HEADER_POSITIONS = ['', 'left', 'center', 'right'] as const
const FRAMES = ['default', 'none', 'indent', 'default', 'ruler-before', 'indent-left', 'indent-right', 'ruler-after']
const SPACES = ['', 'small', 'medium', 'large', 'extra-small', 'extra-large', 'default']
const EXTERNAL = 'https://example.org/'

/** The uid of a page's first content element (its hero or header); the page's other elements follow it. */
const firstElementId = (language: DemoLanguage, index: number): number => language.languageId * 1_000_000 + index * 100

function contextOf(site: GeneratedSite, language: DemoLanguage, index: number): KindsContext {
  const texts = site.textsOf(language)
  const pick = (k: number) => (index + k) % site.count
  return {
    texts,
    words: kindsTexts(language.twoLetterIsoCode),
    title: (i) => site.titleOf(language, i),
    path: (i) => site.pathOf(language, i),
    nav: (i, extra = {}) => entry(site, language, i, extra),
    firstElement: (i) => firstElementId(language, i),
    image: (n) => `fileadmin/images/${IMAGES[(index + n) % IMAGES.length]}.svg`,
    others: [pick(1), pick(2), pick(3), pick(5)],
  }
}

const entry = (site: GeneratedSite, language: DemoLanguage, i: number, extra: Partial<NavEntry> = {}): NavEntry =>
  navEntry(site, language, i, { hasSubpages: extra.children ? 1 : 0, ...extra })

/** Header fields for the elements in page order, so that heading levels never skip one. */
function withHeaders(elements: KindsElement[], names: readonly string[], first: number): Array<[KindsElement, object]> {
  let heading = first
  const headerOf = (element: KindsElement, k: number) => {
    if (element.headed === false) return { header: '', headerLayout: 0 }
    const n = heading++
    return {
      header: names[n % names.length],
      subheader: n % 3 === 0 ? names[(n + 4) % names.length] : '',
      headerLayout: HEADER_LAYOUTS[n % HEADER_LAYOUTS.length],
      headerPosition: HEADER_POSITIONS[(n + k) % HEADER_POSITIONS.length],
      headerLink: n % 5 === 2 ? '/' : '',
    }
  }
  return elements.map((element, k) => {
    const shortcut = element.shortcut?.map((inner, m) => [inner, headerOf(inner, k + m)] as const)
    return [element, { ...headerOf(element, k), ...(shortcut ? { shortcut: shortcut.map(([e, h]) => [e, h]) } : {}) }]
  })
}

function toElement(id: number, element: KindsElement, header: object, k: number): ContentElement {
  const { shortcut, ...rest } = header as { shortcut?: Array<[KindsElement, object]> }
  return {
    id,
    type: element.type,
    colPos: 0,
    categories: '',
    appearance: {
      layout: element.layout ?? 'default',
      frameClass: element.frameClass ?? FRAMES[k % FRAMES.length],
      spaceBefore: SPACES[k % SPACES.length],
      spaceAfter: SPACES[(k + 3) % SPACES.length],
    },
    content: {
      ...element.content,
      ...rest,
      ...(shortcut ? { shortcut: shortcut.map(([e, h], m) => toElement(id * 10 + m, e, h, k + m)) } : {}),
    },
  }
}

export function buildKindsPage(site: GeneratedSite, language: DemoLanguage, index: number): PageData {
  const ctx = contextOf(site, language, index)
  const title = site.titleOf(language, index)
  const catalogue = kindsCatalogue(ctx)
  // The home page has a hero under a transparent header; other pages with the flag have breadcrumbs
  // above the hero (or no hero at all), where the header must stay opaque.
  const transparent = index === 0 || index % 3 === 1
  const hero = transparent && index % 6 !== 4
  const twoColumns = index % 3 === 2
  const first: KindsElement = hero
    ? {
        type: 'textmedia',
        layout: 'hero',
        frameClass: 'none',
        content: {
          bodytext: `<p>${ctx.texts.sentences[index % ctx.texts.sentences.length]} <a href="${ctx.path(0)}">${ctx.title(0)}</a></p>`,
          gallery: gallery([fileRef('fileadmin/images/hero-office.svg', '', 1600, 900)], 'center', 'above'),
        },
      }
    : { type: 'header', content: {} }
  const picked = Array.from(
    { length: ELEMENTS_PER_PAGE },
    (_, j) => catalogue[(index * ELEMENTS_PER_PAGE + j) % catalogue.length] as KindsElement,
  )
  const names = [
    ...Object.values(ctx.texts.headers),
    ctx.texts.table.header,
    ...ctx.texts.topics.map(capitalise),
    ctx.words.form.header,
  ]
  // The page title is the first element's header: h1, or (every fourth page) layout 0, which leaves the h1 to the layout.
  const firstHeader = {
    header: title,
    subheader: ctx.texts.sentences[0],
    headerLayout: index % 4 === 3 ? 0 : 1,
    headerPosition: '',
  }
  const base = firstElementId(language, index)
  const elements = [
    toElement(base, first, firstHeader, 0),
    ...withHeaders(picked, names, index % 4 === 3 ? 1 : 0).map(([e, h], k) => toElement(base + k + 1, e, h, k + 1)),
  ]
  const aside = twoColumns ? elements.splice(-2).map((e) => ({ ...e, colPos: 1 })) : []
  const crumbs = site.crumbsOf(index)
  const description = `${title}. ${ctx.texts.sentences[index % ctx.texts.sentences.length] ?? ''}`
  return {
    id: index + 1,
    type: 'Standard',
    slug: site.pathOf(language, index).slice(language.base.length - 1) || '/',
    media: [],
    meta: {
      title,
      description,
      ogTitle: title,
      ogDescription: description,
      robots: { noIndex: false, noFollow: false },
    },
    breadcrumbs: crumbs.map((i) => entry(site, language, i, { active: 1, current: i === index ? 1 : 0 })),
    appearance: {
      layout: 'layout-0',
      backendLayout: twoColumns ? 'two_columns' : 'default',
      headerTransparent: transparent ? 1 : 0,
    },
    content: { colPos0: elements, ...(aside.length ? { colPos1: aside } : {}) },
    ...(index % 4 === 2 ? { contextMenu: contextMenu(ctx) } : {}),
    i18n: pageLanguages(site, language, index),
  }
}

function contextMenu(ctx: KindsContext): PageData['contextMenu'] {
  const w = ctx.words
  return {
    navigation: [
      ...ctx.others.slice(0, 3).map((i) => ctx.nav(i)),
      { ...ctx.nav(ctx.others[3] ?? 0), title: '' },
      { title: w.blog, link: EXTERNAL, target: '_blank' },
    ],
    additionalLink: { href: ctx.path(0), target: null, class: null, title: w.consultation, linkText: w.consultation },
    iconButtons: [
      { title: w.callUs, link: 'tel:+48581234567', icon: 'phone' },
      { title: w.writeToUs, link: 'mailto:hello@amberline.example', icon: 'mail' },
      {
        title: 'LinkedIn',
        link: 'https://www.linkedin.com/company/amberline-software',
        target: '_blank',
        icon: 'linkedin',
      },
      { title: w.blog, link: EXTERNAL, target: '_blank', icon: 'rss' },
    ],
    iconButtonsText: w.iconButtonsText,
  }
}

/** Navigation of the every-kind site: each menu holds every kind of entry. */
export function buildKindsInitialData(site: GeneratedSite, language: DemoLanguage, extras?: InitialData): InitialData {
  const w = kindsTexts(language.twoLetterIsoCode)
  const at = (i: number) => Math.min(i, site.count - 1)
  const nav = (i: number, extra: Partial<NavEntry> = {}) => entry(site, language, at(i), extra)
  const spacer = (title: string): NavEntry => ({ title, link: '', target: '', spacer: 1 })
  const external: NavEntry = { title: w.blog, link: EXTERNAL, target: '_blank', spacer: 0 }
  // Five levels: the header shows four of them.
  const deep = nav(1, {
    buttonLabel: w.seeAll,
    children: [nav(2, { children: [nav(3, { children: [nav(4, { children: [nav(5)] }), nav(6)] }), spacer(w.more)] })],
  })
  const kinds = (offset: number): NavEntry[] => [
    nav(offset + 1, { children: [nav(offset + 2, { children: [nav(offset + 3)] }), { ...external }] }),
    nav(offset + 4, { buttonLabel: w.getInTouch }),
    spacer(w.resources),
    { ...external },
  ]
  return {
    navigation: [
      nav(0, {
        active: 1,
        current: 1,
        children: [
          deep,
          nav(7, { target: '_blank', buttonLabel: w.seeAll, children: [nav(8), external] }),
          nav(9, { buttonLabel: w.getInTouch }),
          spacer(w.more),
          { ...external },
          nav(10, { active: 1 }),
        ],
      }),
    ],
    featuredNavigation: kinds(0),
    // with the pages the templates' fixed links name (contact, careers, privacy policy): how the build finds them
    minorNavigation: [...kinds(4), ...site.fixedOf(language).map((i) => entry(site, language, i))],
    footerNavigation: [...kinds(2), nav(0, { children: [nav(1, { children: [nav(2, { children: [nav(3)] })] })] })],
    socialMenu: [
      ...(extras?.socialMenu ?? []),
      spacer(w.more),
      { ...external, icon: 'rss', children: [nav(1)] },
      { title: w.getInTouch, link: site.pathOf(language, 0), buttonLabel: w.getInTouch, icon: 'mail' },
    ],
    ...(extras?.footerContactData ? { footerContactData: extras.footerContactData } : {}),
    i18n: site.languages.map((other) => languageEntry(other, site.pathOf(other, 0), other === language)),
    ...(extras?.backendEditor ? { backendEditor: extras.backendEditor } : {}),
  }
}
