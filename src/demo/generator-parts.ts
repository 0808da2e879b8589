/**
 * The parts generated pages are made of, shared by the generated site (generator-page.ts) and the
 * every-kind site (generator-kinds.ts): the seeded random source, file references, galleries,
 * content headers and navigation entries.
 */
import type { FileRef, LanguageEntry, NavEntry } from '../shared/types.js'
import { childrenOf, type GeneratedSite, landingOf } from './generator-site.js'
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

export function languageEntry(language: DemoLanguage, link: string, active: boolean, available = true): LanguageEntry {
  const { base: _base, ...entry } = language
  return { ...entry, link, active: active ? 1 : 0, current: 0, available: available ? 1 : 0 }
}

/** Page `index`'s language menu: a language without the page links to its home page, as not available. */
export const pageLanguages = (site: GeneratedSite, language: DemoLanguage, index: number): LanguageEntry[] =>
  site.languages.map((other) =>
    languageEntry(other, site.pathOf(other, index), other === language, site.has(other, index)),
  )

/**
 * A section's navigation entry. The header shows the first sections, and only the first section
 * shows its first pages as a second level: like real sites, the header does not list thousands of
 * pages (a header of every page would make each page's size grow with the site). Every page is
 * reached through the home page's menu of sections and its landing page's `menu_subpages` instead.
 */
const NAV_CHILDREN_SHOWN = 5
/** Sections shown in the header; the home page's menu lists them all. */
export const NAV_SECTIONS_SHOWN = 8

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
