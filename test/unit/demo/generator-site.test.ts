import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildGeneratedInitialData } from '../../../src/demo/generator.js'
import { buildGeneratedPage } from '../../../src/demo/generator-page.js'
import { childrenOf, createGeneratedSite, sectionCount } from '../../../src/demo/generator-site.js'
import { pagePath } from '../../../src/demo/paths.js'
import type { NavEntry } from '../../../src/shared/types.js'
import type { SiteTexts } from '../../../templates/texts.js'
import { DEMO_LANGUAGES } from './languages.js'

const [EN, PL, DE] = DEMO_LANGUAGES
const site = createGeneratedSite([EN, PL, DE], 120)
const flatten = (entries: NavEntry[] = []): NavEntry[] => entries.flatMap((e) => [e, ...flatten(e.children)])

describe('generated site layout', () => {
  it.each([
    [EN, 0, '/'],
    [EN, 1, '/section-1'],
    [EN, 2, '/section-1/page-2'],
    [EN, 51, '/section-2'],
    [PL, 0, '/pl'],
    [PL, 52, '/pl/dzial-2/strona-52'],
    [DE, 119, '/de/bereich-3/seite-119'],
  ])('%# page %i has path %s and back', (lang, index, path) => {
    expect(site.pathOf(lang, index)).toBe(path)
    expect(site.indexOf(lang, path)).toBe(index)
  })

  it('round-trips every index and rejects paths that are not generated pages', () => {
    for (const lang of [EN, PL, DE])
      for (let i = 0; i < site.count; i++) expect(site.indexOf(lang, site.pathOf(lang, i))).toBe(i)
    for (const path of [
      '/section-4',
      '/section-1/page-60',
      '/section-01',
      '/section-1/page-1',
      '/section-3/page-120',
      '/dzial-1',
      '/pl/section-1',
    ]) {
      expect(site.indexOf(path.startsWith('/pl') ? PL : EN, path), path).toBeUndefined()
    }
  })

  it('splits pages into sections', () => {
    expect(sectionCount(120)).toBe(3)
    expect(childrenOf(2, 120)).toEqual(Array.from({ length: 18 }, (_, k) => 102 + k))
    expect(() => createGeneratedSite([EN], 0)).toThrow(RangeError)
  })
})

describe('generated pages and navigation', () => {
  it('builds the same page twice, with 8 elements and i18n for every language', () => {
    const page = buildGeneratedPage(site, PL, 52)
    expect(buildGeneratedPage(site, PL, 52)).toEqual(page)
    expect(page.content.colPos0).toHaveLength(8)
    expect(page.i18n?.map((l) => [l.link, l.active])).toEqual([
      ['/section-2/page-52', 0],
      ['/pl/dzial-2/strona-52', 1],
      ['/de/bereich-2/seite-52', 0],
    ])
    expect(page.slug).toBe('/dzial-2/strona-52')
    expect(page.breadcrumbs?.map((b) => b.link)).toEqual(['/pl', '/pl/dzial-2', '/pl/dzial-2/strona-52'])
    const hrefs = [...JSON.stringify(page.content).matchAll(/href=\\"([^"\\]+)\\"/g)].map((m) => m[1] ?? '')
    expect(hrefs.length).toBeGreaterThanOrEqual(4)
    for (const href of hrefs) expect(site.indexOf(PL, href), href).toBeDefined()
  })

  it("reaches every page from the navigation and the home and landing pages' menus", () => {
    const data = buildGeneratedInitialData(site, DE)
    const navLinks = flatten(data.navigation).map((e) => e.link)
    // Sections and a few pages of the first one: the header stays small however large the site.
    expect(navLinks.length).toBeLessThanOrEqual(1 + sectionCount(120) + 5)
    const queue = [...new Set(navLinks)]
    const reached = new Set(queue)
    for (const link of queue) {
      const menus = buildGeneratedPage(site, DE, site.indexOf(DE, link)!).content.colPos0!.filter((e) =>
        /^menu_/.test(e.type),
      )
      for (const menu of menus)
        for (const { link: next } of (menu.content as { menu: NavEntry[] }).menu)
          if (!reached.has(next)) reached.add(next) && queue.push(next)
    }
    expect(reached.size).toBe(120)
    expect(data.i18n.find((l) => l.active)?.link).toBe('/de')
  })
})

// The demo templates link every page to fixed paths (templates/texts/<locale>.ts `links`); without pages
// there, every page of a build of the generated site links to 404s.
describe("the pages at the templates' fixed links", () => {
  const textsDir = new URL('../../../templates/texts/', import.meta.url)
  const locales = readdirSync(textsDir).filter((name) => name.endsWith('.ts'))

  it.each(locales)(
    'are served for every link of templates/texts/%s, and listed in the secondary navigation',
    async (name) => {
      const texts = ((await import(new URL(name, textsDir).href)) as { default: SiteTexts }).default
      const lang = DEMO_LANGUAGES.find((l) => `${l.twoLetterIsoCode}.ts` === name)
      expect(lang, name).toBeDefined()
      const minor = buildGeneratedInitialData(site, lang!).minorNavigation?.map((e) => e.link)
      for (const link of Object.values(texts.links)) {
        const index = site.indexOf(lang!, link)
        expect(index, link).toBeGreaterThanOrEqual(site.count)
        const page = buildGeneratedPage(site, lang!, index!)
        expect([pagePath(lang!, page.slug ?? ''), page.content.colPos0?.length], link).toEqual([link, 8])
        expect(minor).toContain(link)
      }
    },
  )

  it('link to their translations, and a page one language has to that language only', () => {
    const contact = site.indexOf(DE, '/de/kontakt')!
    const rodo = site.indexOf(PL, '/pl/klauzula-informacyjna-rodo')!
    expect(buildGeneratedPage(site, DE, contact).i18n?.map((l) => [l.link, l.available])).toEqual([
      ['/contact', 1],
      ['/pl/kontakt', 1],
      ['/de/kontakt', 1],
    ])
    const page = buildGeneratedPage(site, PL, rodo)
    expect(page.i18n?.map((l) => [l.link, l.available])).toEqual([
      ['/', 0],
      ['/pl/klauzula-informacyjna-rodo', 1],
      ['/de', 0],
    ])
    expect(page.breadcrumbs?.map((b) => b.link)).toEqual(['/pl', '/pl/klauzula-informacyjna-rodo'])
    expect(site.indexOf(EN, '/klauzula-informacyjna-rodo')).toBeUndefined()
    expect(buildGeneratedPage(site, PL, rodo)).toEqual(page)
  })
})

describe('a large generated site', () => {
  it('keeps the header the same size however many pages there are', () => {
    const big = createGeneratedSite([DE], 10_000)
    const navLinks = flatten(buildGeneratedInitialData(big, DE).navigation)
    expect(navLinks.length).toBeLessThanOrEqual(1 + 12 + 5)
  })
})
