/**
 * Turns links found in API data into crawlable paths: the pure bridge between
 * link extraction (links.ts) and the crawler (crawl.ts).
 */
import type { InitialData, PageData } from '../shared/types.js'
import type { DiscoveredPath, LinkOrigin } from './crawl.js'
import { extractInitialDataLinks, extractPageLinks } from './links.js'
import { toCrawlTarget } from './paths.js'
import type { CmsSource, SkippedItem } from './types.js'

export interface DiscoverOptions {
  baseUrl?: string
  locales: readonly string[]
}

export interface Discovery {
  paths: DiscoveredPath[]
  /** Hostile or colliding links, refused and listed in the report. */
  refused: SkippedItem[]
}

/**
 * Sorts hrefs into crawlable paths and refused links, each with where it was found (`source`: the page
 * that holds it, with its uid and the content element's). External, mail, phone and anchor links are dropped.
 */
export function discoverPaths(
  hrefs: Iterable<string>,
  origin: LinkOrigin,
  source: CmsSource & { from: string },
  options: DiscoverOptions,
  into: Discovery = { paths: [], refused: [] },
): Discovery {
  for (const href of hrefs) {
    const target = toCrawlTarget(href, options)
    if (target.type === 'page') into.paths.push({ ...source, path: target.path, origin })
    else if (target.type === 'refused')
      into.refused.push({ ...source, kind: target.kind, item: href, reason: target.reason })
  }
  return into
}

/** Paths a page links to: navigation-like places count as `nav`, the page's content as `content`. */
export function discoverFromPage(page: PageData, from: string, options: DiscoverOptions): Discovery {
  const links = extractPageLinks(page)
  const discovery = discoverPaths(links.nav, 'nav', { from, pageUid: page.id }, options)
  for (const { elementUid, hrefs } of links.content)
    discoverPaths(hrefs, 'content', { from, pageUid: page.id, elementUid }, options, discovery)
  return discovery
}

/** The crawl's seeds for one locale: its home page and every link of its initial data. */
export function discoverFromInitialData(
  initialData: InitialData,
  home: string,
  locale: string,
  options: DiscoverOptions,
): Discovery {
  const from = `initial data (${locale})`
  return discoverPaths([home, ...extractInitialDataLinks(initialData)], 'nav', { from }, options)
}
