/**
 * Pure: slug history. When a page's path changes between builds (same uid,
 * same locale), its old path becomes a 301 to the new one, written like the API's redirects
 * (a `_redirects` line, a redirect page, a redirect payload: pages.ts `buildRedirect`). The
 * redirect stays in later builds, following the page if it moves again, until the CMS serves
 * a page or a redirect at the old path again (as far as the crawl reaches it), or the page is gone.
 */
import type { PageIdentity } from '../page-table.js'
import type { SlugChange } from '../types.js'
import type { StoredRedirect } from './store.js'

/** The status of a slug history redirect: the page moved for good. */
export const SLUG_REDIRECT_STATUS = 301

const keyOf = (uid: number, locale: string): string => `${uid}\u0000${locale}`

/**
 * The slug history redirects of this build and the slug changes it found (a subset of them).
 * Example: previous page uid 2 at `/pl/o-nas`, now at `/pl/o-firmie` -> redirect `/pl/o-nas` ->
 * `/pl/o-firmie`; a stored one `/pl/kim-jestesmy` -> `/pl/o-nas` of the same page follows it to `/pl/o-firmie`.
 */
export function planSlugRedirects(input: {
  previousPages: Iterable<PageIdentity>
  previousRedirects: Iterable<StoredRedirect>
  pages: Iterable<PageIdentity>
  /** Paths the CMS serves a redirect at in this build (the crawl reached them). */
  apiRedirects: Iterable<string>
}): { redirects: SlugChange[]; changes: SlugChange[] } {
  const now = new Map<string, string>()
  // every page's key and path: a page may have more than one path in its locale (a language i18n.locales no
  // longer lists is built as the default locale's pages, the same uids again)
  const at = new Set<string>()
  const served = new Set(input.apiRedirects)
  for (const page of input.pages) {
    if (page.uid !== undefined) {
      now.set(keyOf(page.uid, page.locale), page.path)
      at.add(`${keyOf(page.uid, page.locale)}\u0000${page.path}`)
    }
    served.add(page.path)
  }
  const redirects = new Map<string, SlugChange>()
  const changes: SlugChange[] = []
  /** `was`: where a stored redirect led, which it keeps while the page is still there. */
  const follow = (from: string, uid: number, locale: string, was?: string): SlugChange | undefined => {
    const key = keyOf(uid, locale)
    const to = was !== undefined && at.has(`${key}\u0000${was}`) ? was : now.get(key)
    return to === undefined || to === from || served.has(from) ? undefined : { from, to, locale, uid }
  }
  for (const old of input.previousRedirects) {
    if (old.kind !== 'slug' || old.uid === undefined) continue
    const redirect = follow(old.from, old.uid, old.locale, old.to)
    if (redirect) redirects.set(redirect.from, redirect)
  }
  for (const page of input.previousPages) {
    if (page.uid === undefined) continue
    const change = follow(page.path, page.uid, page.locale)
    if (!change) continue
    changes.push(change)
    redirects.set(change.from, change)
  }
  const byFrom = (a: SlugChange, b: SlugChange) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0)
  return { redirects: [...redirects.values()].sort(byFrom), changes: changes.sort(byFrom) }
}
