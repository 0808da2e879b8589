/**
 * The every-kind generated site is only worth checking if it really holds
 * every kind: every content type with a template, every header layout and position, both
 * backend layouts and header modes, and every kind of entry in every menu, in en, pl and de.
 */
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { buildKindsInitialData, buildKindsPage } from '../../../src/demo/generator-kinds.js'
import { createGeneratedSite } from '../../../src/demo/generator-site.js'
import type { ContentElement, NavEntry } from '../../../src/shared/types.js'
import { DEMO_LANGUAGES as LANGUAGES } from './languages.js'

const PAGES = 12
const site = createGeneratedSite(LANGUAGES, PAGES)

/** `MenuSitemapPages.tsx` -> `menu_sitemap_pages` (the name conversion of src/runtime/names.ts, backwards). */
const TEMPLATE_TYPES = readdirSync(new URL('../../../templates/content/', import.meta.url))
  .filter((file) => file.endsWith('.tsx') && file !== 'Default.tsx')
  .map((file) =>
    file
      .replace(/\.tsx$/, '')
      .replace(/(?<!^)([A-Z])/g, '_$1')
      .toLowerCase(),
  )

const elementsOf = (elements: ContentElement[]): ContentElement[] =>
  elements.flatMap((e) => [e, ...elementsOf((e.content.shortcut as ContentElement[] | undefined) ?? [])])
const flatten = (entries: NavEntry[] = []): NavEntry[] => entries.flatMap((e) => [e, ...flatten(e.children)])
const depthOf = (entries: NavEntry[] = []): number => Math.max(0, ...entries.map((e) => 1 + depthOf(e.children)))

describe.each(LANGUAGES)('every-kind generated site ($twoLetterIsoCode)', (lang) => {
  const pages = Array.from({ length: PAGES }, (_, i) => buildKindsPage(site, lang, i))
  const elements = pages.flatMap((page) => elementsOf(Object.values(page.content).flat()))

  it('uses every content type that has a template, and one that has none', () => {
    const types = new Set(elements.map((e) => e.type))
    for (const type of TEMPLATE_TYPES) expect(types, type).toContain(type)
    expect([...types].filter((t) => !TEMPLATE_TYPES.includes(t))).not.toEqual([])
  })

  it('uses every header layout and position, both backend layouts and both header modes', () => {
    const headed = elements.filter((e) => typeof e.content.header === 'string' && e.content.header !== '')
    expect(new Set(headed.map((e) => e.content.headerLayout))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 100]))
    expect(new Set(headed.map((e) => e.content.headerPosition))).toEqual(new Set(['', 'left', 'center', 'right']))
    expect(new Set(pages.map((p) => p.appearance.backendLayout))).toEqual(new Set(['default', 'two_columns']))
    expect(new Set(pages.map((p) => p.appearance.headerTransparent))).toEqual(new Set([0, 1]))
    expect(pages.some((p) => p.contextMenu)).toBe(true)
  })

  it('puts every kind of entry into every menu, the main navigation five levels deep', () => {
    const data = buildKindsInitialData(site, lang)
    const menus = {
      navigation: data.navigation[0]?.children,
      featuredNavigation: data.featuredNavigation,
      minorNavigation: data.minorNavigation,
      footerNavigation: data.footerNavigation,
      socialMenu: data.socialMenu,
    }
    for (const [name, entries] of Object.entries(menus)) {
      const all = flatten(entries)
      expect(
        all.some((e) => e.spacer === 1),
        `${name}: spacer`,
      ).toBe(true)
      expect(
        all.some((e) => e.buttonLabel),
        `${name}: button label`,
      ).toBe(true)
      expect(
        all.some((e) => e.target === '_blank'),
        `${name}: new window`,
      ).toBe(true)
      expect(depthOf(entries), `${name}: children`).toBeGreaterThanOrEqual(2)
    }
    expect(depthOf(menus.navigation)).toBe(5)
    for (const entry of flatten(data.navigation).filter((e) => !e.spacer && e.link.startsWith('/')))
      expect(site.indexOf(lang, entry.link), entry.link).toBeDefined()
  })

  it('points every section link (menu_section, menu_section_pages) at an element of the linked page', () => {
    const idsOf = new Map(
      pages.map((page, i) => [
        site.pathOf(lang, i),
        new Set(elementsOf(Object.values(page.content).flat()).map((e) => e.id)),
      ]),
    )
    const sectionLinks = elements
      .filter((e) => e.type === 'menu_section' || e.type === 'menu_section_pages')
      .flatMap((e) =>
        (e.content.menu as Array<NavEntry & { content: Array<{ uid: number }> }>).flatMap((entry) =>
          entry.content.map((c) => `${entry.link}#c${c.uid}`),
        ),
      )
    expect(sectionLinks).not.toEqual([])
    const dangling = sectionLinks.filter((link) => {
      const [path = '', uid = ''] = link.split('#c')
      return !idsOf.get(path)?.has(Number(uid))
    })
    expect(dangling).toEqual([])
  })
})
