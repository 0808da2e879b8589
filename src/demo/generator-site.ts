/**
 * The shape of a generated site, as pure arithmetic on a page index, so that
 * 10,000 pages per locale cost no memory until one is requested.
 *
 * Index 0 is the home page. Indices 1..N-1 form sections of GENERATED_SECTION_SIZE:
 * the first index of a section is its landing page, the others are its children.
 * Example (en): 0 -> `/`, 1 -> `/section-1`, 2 -> `/section-1/page-2`, 51 -> `/section-2`.
 * The fixed pages follow (GeneratedTexts.fixedPages, the paths the demo templates link every page to):
 * in a site of N pages, N -> `/contact`, N+1 -> `/careers`, N+2 -> `/policy`.
 */
import { capitalise } from './generator-prose.js'
import { type GeneratedTexts, generatedTexts } from './generator-text.js'
import { pagePath, prefixOf } from './paths.js'
import type { DemoLanguage } from './types.js'

const GENERATED_SECTION_SIZE = 50
/** Element ids are `languageId * 1e6 + index * 10 + n`: indices of generated pages must stay below 1e5. */
const MAX_GENERATED_PAGES_PER_LOCALE = 100_000

export interface GeneratedSite {
  readonly count: number
  readonly languages: readonly DemoLanguage[]
  pathOf(language: DemoLanguage, index: number): string
  /** The index of a normalised path of that language, when it is a generated page. */
  indexOf(language: DemoLanguage, path: string): number | undefined
  titleOf(language: DemoLanguage, index: number): string
  textsOf(language: DemoLanguage): GeneratedTexts
  /** The indices of the language's fixed pages. */
  fixedOf(language: DemoLanguage): number[]
  /** Whether page `index` exists in the language: a fixed page may not (pathOf gives its home page then). */
  has(language: DemoLanguage, index: number): boolean
  /** Page `index`'s breadcrumb trail: the home page, its section's landing page (for a section's page), itself. */
  crumbsOf(index: number): number[]
}

export const sectionOf = (index: number): number => Math.floor((index - 1) / GENERATED_SECTION_SIZE)
export const landingOf = (section: number): number => 1 + section * GENERATED_SECTION_SIZE
export const isLanding = (index: number): boolean => index > 0 && (index - 1) % GENERATED_SECTION_SIZE === 0
export const sectionCount = (count: number): number => Math.ceil(Math.max(0, count - 1) / GENERATED_SECTION_SIZE)

/** Child indices of a section that exist in a site of `count` pages. */
export function childrenOf(section: number, count: number): number[] {
  const first = landingOf(section) + 1
  const last = Math.min(count - 1, landingOf(section) + GENERATED_SECTION_SIZE - 1)
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, k) => first + k)
}

const SEGMENT_RE = /^\/([a-z]+)-(\d+)(?:\/([a-z]+)-(\d+))?$/

export function createGeneratedSite(languages: readonly DemoLanguage[], count: number): GeneratedSite {
  if (!Number.isInteger(count) || count < 1 || count > MAX_GENERATED_PAGES_PER_LOCALE) {
    throw new RangeError(
      `generate.pagesPerLocale must be an integer from 1 to ${MAX_GENERATED_PAGES_PER_LOCALE}, got ${count}`,
    )
  }
  const textsOf = (language: DemoLanguage): GeneratedTexts => generatedTexts(language.twoLetterIsoCode)
  const fixedPageOf = (language: DemoLanguage, index: number) =>
    index >= count ? textsOf(language).fixedPages[index - count] : undefined
  const fixedOf = (language: DemoLanguage): number[] => textsOf(language).fixedPages.map((_, k) => count + k)
  const has = (language: DemoLanguage, index: number): boolean =>
    index >= 0 && (index < count || fixedPageOf(language, index) !== undefined)

  const pathOf = (language: DemoLanguage, index: number): string => {
    if (index >= count) return pagePath(language, fixedPageOf(language, index)?.slug ?? '/')
    if (index === 0) return pagePath(language, '/')
    const texts = textsOf(language)
    const section = `${prefixOf(language)}/${texts.sectionSlug}-${sectionOf(index) + 1}`
    return isLanding(index) ? section : `${section}/${texts.pageSlug}-${index}`
  }

  const indexOf = (language: DemoLanguage, path: string): number | undefined => {
    const prefix = prefixOf(language)
    if (path === (prefix || '/')) return 0
    if (!path.startsWith(`${prefix}/`)) return undefined
    const fixed = fixedOf(language).find((i) => pathOf(language, i) === path)
    if (fixed !== undefined) return fixed
    const match = SEGMENT_RE.exec(path.slice(prefix.length))
    if (!match) return undefined
    const index = match[3] === undefined ? landingOf(Number(match[2]) - 1) : Number(match[4])
    // The round trip rejects wrong words, leading zeros and a page filed under another section.
    return index > 0 && index < count && pathOf(language, index) === path ? index : undefined
  }

  const titleOf = (language: DemoLanguage, index: number): string => {
    const texts = textsOf(language)
    if (index >= count) return fixedPageOf(language, index)?.title ?? texts.home
    if (index === 0) return texts.home
    const topic = (n: number): string => texts.topics[n % texts.topics.length] ?? ''
    if (isLanding(index)) return `${texts.section} ${sectionOf(index) + 1}: ${capitalise(topic(sectionOf(index)))}`
    const adjective = texts.adjectives[index % texts.adjectives.length] ?? ''
    return `${adjective} ${topic(Math.floor(index / texts.adjectives.length))} ${index}`
  }

  const crumbsOf = (index: number): number[] =>
    index === 0 ? [0] : index >= count || isLanding(index) ? [0, index] : [0, landingOf(sectionOf(index)), index]

  return { count, languages, pathOf, indexOf, titleOf, textsOf, fixedOf, has, crumbsOf }
}
