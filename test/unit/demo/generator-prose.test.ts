/**
 * The generated site is the benchmark's site, so it must look like a customer's: rich text that no two
 * pages share (a cache of sanitised text must not flatter the build), about 50 links a page (navigation
 * and content) and translations that share their structure.
 */
import { describe, expect, it } from 'vitest'
import { buildGeneratedInitialData } from '../../../src/demo/generator.js'
import { buildGeneratedPage } from '../../../src/demo/generator-page.js'
import { createGeneratedSite, isLanding } from '../../../src/demo/generator-site.js'
import type { InitialData, NavEntry, PageData } from '../../../src/shared/types.js'
import { DEMO_LANGUAGES } from './languages.js'

const PAGES = 1000
const site = createGeneratedSite(DEMO_LANGUAGES, PAGES)
/** Pages checked: the first 400 and a stretch at the end, in every language. */
const INDICES = [...Array.from({ length: 400 }, (_, i) => i), ...Array.from({ length: 100 }, (_, i) => PAGES - 100 + i)]

const flatten = (entries: NavEntry[] = []): NavEntry[] => entries.flatMap((e) => [e, ...flatten(e.children)])
const elementsOf = (page: PageData) => page.content.colPos0 ?? []

/** Paragraphs of a page's rich text: the `<p>`s of its bodytext strings and its bullet items, tables left out. */
function paragraphsOf(page: PageData): string[] {
  return elementsOf(page).flatMap(({ type, content: { bodytext } }) => {
    if (type === 'table') return []
    if (typeof bodytext === 'string') {
      const ps = [...bodytext.matchAll(/<p>(.*?)<\/p>/gs)].map((m) => m[1] ?? '')
      return ps.length ? ps : [bodytext]
    }
    return Array.isArray(bodytext) ? bodytext.map((item) => (Array.isArray(item) ? String(item[1]) : String(item))) : []
  })
}

/**
 * Links of a page to pages of the site: its navigation menus, breadcrumbs, language links and content.
 * The templates' own links (logo, skip link) and the hand-written footer's add about 12 in the HTML.
 */
function linksOf(page: PageData, initial: InitialData): string[] {
  const menus = [initial.navigation, initial.featuredNavigation, initial.minorNavigation, initial.footerNavigation]
  const content = elementsOf(page).flatMap(({ content }) => [
    ...[...JSON.stringify(content.bodytext ?? '').matchAll(/href=\\"([^"\\]+)\\"/g)].map((m) => m[1] ?? ''),
    ...((content.menu as NavEntry[] | undefined) ?? []).map((e) => e.link),
  ])
  return [
    ...menus.flatMap((menu) => flatten(menu).map((e) => e.link)),
    ...(page.breadcrumbs ?? []).map((e) => e.link),
    ...(page.i18n ?? []).map((e) => e.link),
    ...content,
  ]
}

describe.each(DEMO_LANGUAGES)('generated site as a benchmark ($twoLetterIsoCode)', (language) => {
  const pages = INDICES.map((i) => buildGeneratedPage(site, language, i))

  it('shares no paragraph of rich text between two pages', () => {
    const pageOf = new Map<string, number>()
    for (const [k, page] of pages.entries())
      for (const paragraph of new Set(paragraphsOf(page))) {
        expect(paragraph.length, `page ${INDICES[k]}`).toBeGreaterThan(40)
        const other = pageOf.get(paragraph)
        expect(other, `page ${INDICES[k]} repeats a paragraph of page ${other}: ${paragraph}`).toBeUndefined()
        pageOf.set(paragraph, INDICES[k] ?? -1)
      }
    expect(pageOf.size).toBeGreaterThan(pages.length * 15)
  })

  it('gives a page 36 to 48 links to pages of the site, and 4 to 10 KB of rich text', () => {
    const initial = buildGeneratedInitialData(site, language)
    for (const [k, page] of pages.entries()) {
      const index = INDICES[k] ?? 0
      const links = linksOf(page, initial)
      // the home and landing pages also list every section or a section's pages
      if (index !== 0 && !isLanding(index)) {
        expect(links.length, `page ${index}`).toBeGreaterThanOrEqual(36)
        expect(links.length, `page ${index}`).toBeLessThanOrEqual(48)
      }
      const languageOf = (link: string) => DEMO_LANGUAGES.find((l) => site.indexOf(l, link) !== undefined)
      for (const link of links) expect(languageOf(link), link).toBeDefined()
      const text = paragraphsOf(page).join('').length
      expect(text, `page ${index}`).toBeGreaterThan(4_000)
      expect(text, `page ${index}`).toBeLessThan(10_000)
    }
  })
})

describe('generated translations', () => {
  it('share their structure and link to the same pages, in their own words', () => {
    const [en, pl, de] = DEMO_LANGUAGES.map((language) => buildGeneratedPage(site, language, 321))
    const targets = (page: PageData | undefined, language: (typeof DEMO_LANGUAGES)[number]) =>
      [...JSON.stringify(page?.content).matchAll(/href=\\"([^"\\]+)\\"/g)].map((m) =>
        site.indexOf(language, m[1] ?? ''),
      )
    const [EN, PL, DE] = DEMO_LANGUAGES
    expect(targets(pl, PL)).toEqual(targets(en, EN))
    expect(targets(de, DE)).toEqual(targets(en, EN))
    expect(targets(en, EN).length).toBeGreaterThanOrEqual(8)
    expect(paragraphsOf(pl!)).not.toEqual(paragraphsOf(en!))
    expect(buildGeneratedPage(site, EN, 321)).toEqual(en)
  })
})
