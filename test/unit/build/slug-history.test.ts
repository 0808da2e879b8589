import { describe, expect, it } from 'vitest'
import { planSlugRedirects } from '../../../src/build/incremental/slug-history.js'
import type { PageRecord } from '../../../src/build/types.js'

const page = (path: string, locale: string, uid?: number): PageRecord => ({
  path,
  locale,
  uid,
  noIndex: false,
  alternates: [],
  links: { nav: [], content: [] },
})

describe('planSlugRedirects', () => {
  it('redirects the old path of a page whose path changed in its locale, and reports the change', () => {
    const plan = planSlugRedirects({
      previousPages: [page('/pl/a', 'pl', 2), page('/a', 'en', 2), page('/pl/b', 'pl', 3), page('/x', 'en')],
      previousRedirects: [],
      pages: [page('/pl/a2', 'pl', 2), page('/a', 'en', 2), page('/pl/b', 'pl', 3), page('/x', 'en')],
      apiRedirects: [],
    })
    const change = { from: '/pl/a', to: '/pl/a2', locale: 'pl', uid: 2 }
    expect(plan).toEqual({ redirects: [change], changes: [change] })
  })

  it('keeps earlier ones, follows a page that moves again, and drops them where the CMS serves the path or the page is gone', () => {
    const slug = (from: string, uid: number) => ({
      from,
      to: '/old-target',
      statusCode: 301,
      locale: 'en',
      kind: 'slug' as const,
      uid,
    })
    const plan = planSlugRedirects({
      previousPages: [page('/b', 'en', 2), page('/c', 'en', 3)],
      previousRedirects: [
        slug('/a', 2),
        slug('/served-again', 2),
        slug('/api-redirect', 2),
        slug('/gone-page', 9),
        { from: '/api', to: '/b', statusCode: 302, locale: 'en', kind: 'api' },
      ],
      pages: [page('/b2', 'en', 2), page('/served-again', 'en', 7)],
      apiRedirects: ['/api-redirect'],
    })
    expect(plan.redirects).toEqual([
      { from: '/a', to: '/b2', locale: 'en', uid: 2 },
      { from: '/b', to: '/b2', locale: 'en', uid: 2 },
    ])
    expect(plan.changes).toEqual([{ from: '/b', to: '/b2', locale: 'en', uid: 2 }])
  })

  it('keeps a redirect on its page when the page has another path in its locale too', () => {
    // a language i18n.locales no longer lists is built as pages of the default locale: the same uid twice in it
    const plan = planSlugRedirects({
      previousPages: [page('/jobs', 'en', 12), page('/de/karriere', 'de', 12)],
      previousRedirects: [{ from: '/careers', to: '/jobs', statusCode: 301, locale: 'en', kind: 'slug', uid: 12 }],
      pages: [page('/jobs', 'en', 12), page('/de/karriere', 'en', 12)],
      apiRedirects: [],
    })
    expect(plan).toEqual({ redirects: [{ from: '/careers', to: '/jobs', locale: 'en', uid: 12 }], changes: [] })
  })
})
