import { describe, expect, it } from 'vitest'
import type { PreviousOutput } from '../../../src/build/incremental/previous.js'
import { createReusePlan, namedFileRefs, parseOnly } from '../../../src/build/incremental/reuse.js'
import { STORE_FORMAT } from '../../../src/build/incremental/store.js'
import { PageTable, type StoredPageRecord } from '../../../src/build/page-table.js'

const page = (
  path: string,
  locale: string,
  uid: number,
  nav: string[] = [],
  content: string[] = [],
  fileRefs: string[] = [],
): StoredPageRecord => ({
  path,
  locale,
  uid,
  noIndex: false,
  alternates: [],
  links: { nav, content },
  ...(fileRefs.length ? { fileRefs } : {}),
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
    disk: { files: new Map(), emptyDirs: [] },
    unlisted: [],
    changed: () => [],
    hashOf: () => undefined,
    recordedHashOf: () => undefined,
  }
}

const previous = previousOf([
  page('/', 'en', 1, ['/a', '/b']),
  page('/a', 'en', 2, ['/'], ['/b']),
  page('/b', 'en', 3, ['/'], [], ['/fileadmin/_processed_/1/csm_photo_1a.jpg', '/fileadmin/photo.jpg']),
  page('/pl', 'pl', 1, ['/pl/a']),
  page('/pl/a', 'pl', 2, ['/pl']),
  page('/pl/c', 'pl', 4, ['/pl'], ['/a'], ['https://cdn.example/logo.png']),
])

/** The plan of `--only` with these uids, no initial data nor client code changed. */
const planOfUids = (uids: number[]) =>
  createReusePlan({ previous, only: { uids, paths: [], files: [] }, changedLocales: new Set(), clientChanged: false })

describe('parseOnly', () => {
  it('reads uids and paths, and lists what it cannot read', () => {
    expect(parseOnly(['12', ' /pl/o-nas/ ', '/de/%c3%bcber-uns', 'x', '0', '/a/../b'])).toEqual({
      targets: { uids: [12], paths: ['/pl/o-nas', '/de/%C3%BCber-uns'], files: [] },
      invalid: ['x', '0', '/a/../b'],
    })
  })

  it('reads a path as a link names it, without its query and fragment', () => {
    expect(parseOnly(['/pl/o-nas?utm_source=x', '/de/%c3%bcber-uns/#team', '/?preview=1', '?a=1'])).toEqual({
      targets: { uids: [], paths: ['/pl/o-nas', '/de/%C3%BCber-uns', '/'], files: [] },
      invalid: ['?a=1'],
    })
  })

  it('reads CMS files as the references a state may hold for them', () => {
    const items = ['file:/fileadmin/a.jpg?123', 'file:fileadmin/ä.jpg', 'file:https://cms.example/fileadmin/b.jpg']
    expect(parseOnly([...items, 'file:', 'file://evil', 'file:/a b.jpg'])).toEqual({
      targets: {
        uids: [],
        paths: [],
        files: [
          { item: items[0], refs: ['/fileadmin/a.jpg'] },
          { item: items[1], refs: ['/fileadmin/%C3%A4.jpg'] },
          { item: items[2], refs: ['https://cms.example/fileadmin/b.jpg', '/fileadmin/b.jpg'] },
        ],
      },
      invalid: ['file:', 'file://evil', 'file:/a b.jpg'],
    })
  })
})

describe('createReusePlan', () => {
  it('fetches the named page in every locale and the pages that linked to it; keeps the rest', () => {
    const plan = planOfUids([2])
    expect([...plan.targets].sort()).toEqual(['/a', '/pl/a'])
    expect([...plan.dependents].sort()).toEqual(['/', '/pl', '/pl/c'])
    for (const path of ['/a', '/pl/a', '/', '/pl', '/pl/c']) expect(plan.decide(path).type, path).toBe('fetch')
    expect(plan.decide('/b')).toEqual({ type: 'keep', from: previous.pages })
    // what the API answered last time is evidence, not an answer: asked again
    expect(plan.decide('/old')).toEqual({ type: 'fetch' })
    expect(plan.decide('/gone')).toEqual({ type: 'fetch' })
    expect(plan.decide('/never-seen').type).toBe('fetch')
  })

  it('narrows the linking pages to those linking to a target whose answer changed what they show', () => {
    const plan = planOfUids([2, 3])
    expect([...plan.dependents].sort()).toEqual(['/', '/pl', '/pl/c'])
    plan.narrow(new Set(['/pl/a', '/nowhere']))
    expect([...plan.dependents]).toEqual(['/pl'])
    expect(plan.decide('/').type).toBe('keep')
    expect(plan.decide('/a').type).toBe('fetch')
    plan.narrow(new Set())
    expect([...plan.dependents]).toEqual([])
    const answer = { type: 'not-found' as const, status: 404, data: null }
    plan.keepAnswer('/a', answer)
    expect(plan.takeAnswer('/a')).toBe(answer)
    expect(plan.takeAnswer('/a')).toBeUndefined()
  })

  it('adds the pages linking to a linking page whose own answer changed, and keeps that page asked again', () => {
    const plan = planOfUids([2])
    plan.narrow(new Set(['/pl/a']))
    expect([...plan.dependents]).toEqual(['/pl'])
    // /pl changed too (an edit whose event has not come yet): /pl/c shows it; /b is no dependent, so it adds none
    plan.narrow(new Set(['/pl/a', '/pl', '/b']))
    expect([...plan.dependents].sort()).toEqual(['/pl', '/pl/c'])
    expect(plan.decide('/pl').type).toBe('fetch')
    expect(plan.decide('/').type).toBe('keep')
    expect(plan.decide('/b').type).toBe('keep')
  })

  it('renders pages again from kept data where initial data or the client code changed', () => {
    const plan = createReusePlan({
      previous,
      only: { uids: [3], paths: [], files: [] },
      changedLocales: new Set(['pl']),
      clientChanged: false,
    })
    expect(plan.decide('/pl/c').type).toBe('render')
    expect(plan.decide('/b').type).toBe('fetch')
    const all = createReusePlan({
      previous,
      only: { uids: [], paths: ['/b'], files: [] },
      changedLocales: new Set(),
      clientChanged: true,
    })
    expect(all.decide('/pl/c').type).toBe('render')
    expect(all.decide('/a').type).toBe('fetch')
  })

  it('reports uids no page has, and follows a path to its page in the other locales', () => {
    const plan = createReusePlan({
      previous,
      only: { uids: [99], paths: ['/pl/a', '/new'], files: [] },
      changedLocales: new Set(),
      clientChanged: false,
    })
    expect(plan.unknownUids).toEqual([99])
    expect([...plan.targets].sort()).toEqual(['/a', '/new', '/pl/a'])
  })

  it('asks again for the pages that show a file named, by its original or processed URL, on any origin', () => {
    const only = (...items: string[]) =>
      createReusePlan({
        previous,
        only: parseOnly(items).targets,
        changedLocales: new Set(),
        clientChanged: false,
      })
    const byOriginal = only('file:https://www.cms.example/fileadmin/photo.jpg')
    expect([...byOriginal.targets]).toEqual(['/b'])
    expect([...byOriginal.dependents]).toEqual([])
    expect(
      namedFileRefs(parseOnly(['file:https://www.cms.example/fileadmin/photo.jpg']).targets).has(
        '/fileadmin/photo.jpg',
      ),
    ).toBe(true)
    expect([...only('file:/fileadmin/_processed_/1/csm_photo_1a.jpg').targets]).toEqual(['/b'])
    expect([...only('file:https://cdn.example/logo.png').targets]).toEqual(['/pl/c'])
    const unseen = only('file:/fileadmin/new.jpg', 'file:https://other.example/logo.png')
    expect([...unseen.targets]).toEqual([])
    expect(unseen.unknownFiles).toEqual(['file:/fileadmin/new.jpg', 'file:https://other.example/logo.png'])
    expect(unseen.decide('/b')).toEqual({ type: 'keep', from: previous.pages })
  })
})
