import { describe, expect, it } from 'vitest'
import { PageTable, type StoredPageRecord } from '../../../src/build/page-table.js'
import type { PreviousOutput } from '../../../src/build/previous.js'
import { createReusePlan, parseOnly } from '../../../src/build/reuse.js'
import { STORE_FORMAT } from '../../../src/build/store.js'

const page = (
  path: string,
  locale: string,
  uid: number,
  nav: string[] = [],
  content: string[] = [],
): StoredPageRecord => ({
  path,
  locale,
  uid,
  noIndex: false,
  alternates: [],
  links: { nav, content },
  files: ['h', 'p'],
})

function previousOf(pages: StoredPageRecord[]): PreviousOutput {
  return {
    store: {
      format: STORE_FORMAT,
      engine: 'e',
      config: 'c',
      id: 'b',
      clientVersion: 'v',
      locales: {},
      redirects: [],
      notFound: [{ path: '/gone', status: 404 }],
      builds: [],
    },
    pages: PageTable.of(pages),
    redirects: new Map([['/old', { from: '/old', to: '/a', statusCode: 301, locale: 'en', kind: 'api' }]]),
    disk: { files: new Map(), dirs: [] },
    unlisted: [],
    changed: () => [],
    hashOf: () => undefined,
    recordedHashOf: () => undefined,
  }
}

const previous = previousOf([
  page('/', 'en', 1, ['/a', '/b']),
  page('/a', 'en', 2, ['/'], ['/b']),
  page('/b', 'en', 3, ['/']),
  page('/pl', 'pl', 1, ['/pl/a']),
  page('/pl/a', 'pl', 2, ['/pl']),
  page('/pl/c', 'pl', 4, ['/pl'], ['/a']),
])

describe('parseOnly', () => {
  it('reads uids and paths, and lists what it cannot read', () => {
    expect(parseOnly(['12', ' /pl/o-nas/ ', '/de/%c3%bcber-uns', 'x', '0', '/a/../b'])).toEqual({
      targets: { uids: [12], paths: ['/pl/o-nas', '/de/%C3%BCber-uns'] },
      invalid: ['x', '0', '/a/../b'],
    })
  })
})

describe('createReusePlan', () => {
  it('fetches the named page in every locale and the pages that linked to it; keeps the rest', () => {
    const plan = createReusePlan({
      previous,
      only: { uids: [2], paths: [] },
      changedLocales: new Set(),
      clientChanged: false,
    })
    expect([...plan.targets].sort()).toEqual(['/a', '/pl/a'])
    expect([...plan.dependents].sort()).toEqual(['/', '/pl', '/pl/c'])
    for (const path of ['/a', '/pl/a', '/', '/pl', '/pl/c']) expect(plan.decide(path).type, path).toBe('fetch')
    expect(plan.decide('/b')).toEqual({ type: 'keep', from: previous.pages })
    // what the API answered last time is evidence, not an answer: asked again
    expect(plan.decide('/old')).toEqual({ type: 'fetch' })
    expect(plan.decide('/gone')).toEqual({ type: 'fetch' })
    expect(plan.decide('/never-seen').type).toBe('fetch')
  })

  it('renders pages again from kept data where initial data or the client code changed', () => {
    const plan = createReusePlan({
      previous,
      only: { uids: [3], paths: [] },
      changedLocales: new Set(['pl']),
      clientChanged: false,
    })
    expect(plan.decide('/pl/c').type).toBe('render')
    expect(plan.decide('/b').type).toBe('fetch')
    const all = createReusePlan({
      previous,
      only: { uids: [], paths: ['/b'] },
      changedLocales: new Set(),
      clientChanged: true,
    })
    expect(all.decide('/pl/c').type).toBe('render')
    expect(all.decide('/a').type).toBe('fetch')
  })

  it('reports uids no page has, and follows a path to its page in the other locales', () => {
    const plan = createReusePlan({
      previous,
      only: { uids: [99], paths: ['/pl/a', '/new'] },
      changedLocales: new Set(),
      clientChanged: false,
    })
    expect(plan.unknownUids).toEqual([99])
    expect([...plan.targets].sort()).toEqual(['/a', '/new', '/pl/a'])
  })
})
