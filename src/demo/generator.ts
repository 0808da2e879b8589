/**
 * A generated site as a DemoSource, for benchmarks: pages are built on request
 * from their index; only the initial data (the navigation of the sections; each
 * landing page lists its section's pages, the home page every section; the secondary
 * navigation the fixed pages) is built once per language, on first use.
 */
import type { InitialData, NavEntry } from '../shared/types.js'
import { isRecord } from '../shared/values.js'
import { buildKindsInitialData, buildKindsPage } from './generator-kinds.js'
import { buildGeneratedPage } from './generator-page.js'
import { languageEntry, NAV_SECTIONS_SHOWN, navEntry, sectionNav } from './generator-parts.js'
import { createGeneratedSite, type GeneratedSite, landingOf, sectionCount } from './generator-site.js'
import { languageOfPath, trimTrailingSlash } from './paths.js'
import type { DemoLanguage, DemoSource } from './types.js'

export interface GeneratedSourceOptions {
  languages: readonly DemoLanguage[]
  pagesPerLocale: number
  /** Pages and menus with every content type, header layout and navigation entry kind (generator-kinds.ts). */
  everyKind?: boolean
  /** The 404 page JSON per language (the hand-written one). */
  notFound: (language: DemoLanguage) => string
  /** Hand-written initial data per language code: its social menu, footer contact and backend links are reused. */
  extras?: ReadonlyMap<string, InitialData>
}

export function createGeneratedSource(options: GeneratedSourceOptions): DemoSource {
  const site = createGeneratedSite(options.languages, options.pagesPerLocale)
  const initialData = new Map<string, string>()
  const notFound = new Map<string, string>()
  return {
    languages: options.languages,
    page(path) {
      const language = languageOfPath(path, site.languages)
      const index = site.indexOf(language, path)
      if (index === undefined) return undefined
      const build = options.everyKind ? buildKindsPage : buildGeneratedPage
      return JSON.stringify(build(site, language, index))
    },
    redirect: () => undefined,
    initialData(language) {
      const code = language.twoLetterIsoCode
      let text = initialData.get(code)
      if (text === undefined) {
        const build = options.everyKind ? buildKindsInitialData : buildGeneratedInitialData
        text = JSON.stringify(build(site, language, options.extras?.get(code)))
        initialData.set(code, text)
      }
      return text
    },
    notFound(language) {
      const code = language.twoLetterIsoCode
      let text = notFound.get(code)
      if (text === undefined) {
        text = servedMenusOnly(site, options.notFound(language))
        notFound.set(code, text)
      }
      return text
    },
  }
}

/**
 * The hand-written 404 page with its menus ("You may be looking for") holding only the pages the
 * generated site serves: the demo's services and case studies are none, and would be dead links.
 */
function servedMenusOnly(site: GeneratedSite, text: string): string {
  const page: unknown = JSON.parse(text)
  const served = (entry: unknown): boolean => {
    const path = trimTrailingSlash(isRecord(entry) && typeof entry.link === 'string' ? entry.link : '')
    return site.indexOf(languageOfPath(path, site.languages), path) !== undefined
  }
  const columns = isRecord(page) && isRecord(page.content) ? Object.values(page.content) : []
  for (const element of columns.flatMap((column) => (Array.isArray(column) ? column : [])))
    if (isRecord(element) && isRecord(element.content) && Array.isArray(element.content.menu))
      element.content.menu = element.content.menu.filter(served)
  return JSON.stringify(page)
}

export function buildGeneratedInitialData(
  site: GeneratedSite,
  language: DemoLanguage,
  extras?: InitialData,
): InitialData {
  const entry = (i: number, extra: Partial<NavEntry> = {}): NavEntry => navEntry(site, language, i, extra)
  const sections = Array.from({ length: sectionCount(site.count) }, (_, s) => s)
  return {
    navigation: [
      {
        ...entry(0, { active: 1, current: 1, hasSubpages: sections.length ? 1 : 0 }),
        children: sections.slice(0, NAV_SECTIONS_SHOWN).map((s) => sectionNav(site, language, s)),
      },
    ],
    featuredNavigation: sections
      .slice(0, 3)
      .map((s) => entry(landingOf(s), { hasSubpages: 1, buttonLabel: site.titleOf(language, landingOf(s)) })),
    // The pages the templates' fixed links name (contact, careers, privacy policy): how the build finds them.
    minorNavigation: site.fixedOf(language).map((i) => entry(i)),
    socialMenu: extras?.socialMenu ?? [],
    footerNavigation: [entry(0), ...sections.slice(-1).map((s) => entry(landingOf(s)))],
    ...(extras?.footerContactData ? { footerContactData: extras.footerContactData } : {}),
    i18n: site.languages.map((other) => languageEntry(other, site.pathOf(other, 0), other === language)),
    ...(extras?.backendEditor ? { backendEditor: extras.backendEditor } : {}),
  }
}
