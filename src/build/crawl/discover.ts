/**
 * Turns links found in API data into crawlable paths: the pure bridge between
 * link extraction (links.ts) and the crawler (crawl.ts).
 */
import type { InitialData, PageData } from '../../shared/types.js'
import type { SkippedItem } from '../types.js'
import type { FoundLinks } from './crawl.js'
import { extractInitialDataLinks, extractPageLinks } from './links.js'
import { toCrawlTarget } from './paths.js'

export interface DiscoverOptions {
  baseUrl?: string
  locales: readonly string[]
}

export interface Discovery {
  /** The crawlable paths, each once per list, with where they were found. */
  found: FoundLinks
  /** Hostile or colliding links, refused and listed in the report (each with where it was found). */
  refused: SkippedItem[]
}

/** Sorts hrefs into crawlable paths (each once) and refused links; external, mail, phone and anchor links are dropped. */
class LinkSorter {
  readonly found: FoundLinks
  readonly refused: SkippedItem[] = []
  readonly #nav = new Set<string>()
  readonly #content = new Set<string>()

  constructor(
    source: { from: string; pageUid?: number },
    private readonly options: DiscoverOptions,
  ) {
    this.found = { ...source, nav: [], content: [] }
  }

  nav(hrefs: Iterable<string>): void {
    for (const href of hrefs) {
      const path = this.#page(href)
      if (path !== undefined && !this.#nav.has(path)) {
        this.#nav.add(path)
        this.found.nav.push(path)
      }
    }
  }

  content(hrefs: Iterable<string>, elementUid: number): void {
    for (const href of hrefs) {
      const path = this.#page(href, elementUid)
      if (path !== undefined && !this.#content.has(path)) {
        this.#content.add(path)
        this.found.content.push(path)
        this.found.elementUids ??= []
        this.found.elementUids.push(elementUid)
      }
    }
  }

  #page(href: string, elementUid?: number): string | undefined {
    const target = toCrawlTarget(href, this.options)
    if (target.type === 'page') return target.path
    if (target.type === 'refused') {
      const { from, pageUid } = this.found
      this.refused.push({
        from,
        ...(pageUid === undefined ? {} : { pageUid }),
        ...(elementUid === undefined ? {} : { elementUid }),
        kind: target.kind,
        item: href,
        reason: target.reason,
      })
    }
    return undefined
  }
}

/** Paths a page links to: navigation-like places count as `nav`, the page's content as `content`. */
export function discoverFromPage(page: PageData, from: string, options: DiscoverOptions): Discovery {
  const links = extractPageLinks(page)
  const sorter = new LinkSorter({ from, pageUid: page.id }, options)
  sorter.nav(links.nav)
  for (const { elementUid, hrefs } of links.content) sorter.content(hrefs, elementUid)
  return { found: sorter.found, refused: sorter.refused }
}

/** The crawl's seeds for one locale: its home page and every link of its initial data. */
export function discoverFromInitialData(
  initialData: InitialData,
  home: string,
  locale: string,
  options: DiscoverOptions,
): Discovery {
  const sorter = new LinkSorter({ from: `initial data (${locale})` }, options)
  sorter.nav([home, ...extractInitialDataLinks(initialData)])
  return { found: sorter.found, refused: sorter.refused }
}
