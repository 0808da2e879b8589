import { describe, expect, it } from 'vitest'
import { type PagePaths, summarizePageChanges } from '../../../src/build/incremental/changes.js'

const pages = (paths: string[]): PagePaths => ({
  size: paths.length,
  has: (path) => paths.includes(path),
  paths: () => paths,
})

describe('summarizePageChanges', () => {
  it('sorts pages into added, changed (a file written), removed and unchanged', () => {
    expect(
      summarizePageChanges({
        previous: pages(['/a', '/b', '/pl/c', '/d']),
        pages: pages(['/b', '/pl/c', '/d', '/e']),
        written: ['b/index.html', 'pl/c/_payload.json', 'e/index.html', 'e/_payload.json'],
      }),
    ).toEqual({ added: ['/e'], changed: ['/b', '/pl/c'], removed: ['/a'], unchanged: 1 })
  })

  it('counts every page as added without a previous build', () => {
    expect(summarizePageChanges({ previous: undefined, pages: pages(['/', '/a']), written: [] })).toEqual({
      added: ['/', '/a'],
      changed: [],
      removed: [],
      unchanged: 0,
    })
  })

  it('reports a page that moved as a slug change, not as removed and added', () => {
    expect(
      summarizePageChanges({
        previous: pages(['/a', '/b']),
        pages: pages(['/a2', '/b']),
        written: ['a2/index.html', 'a2/_payload.json'],
        moved: [{ from: '/a', to: '/a2' }],
      }),
    ).toEqual({ added: [], changed: [], removed: [], unchanged: 1 })
  })

  it('after an --only build that kept the other pages whole, looks only at the pages it built again', () => {
    const both = pages(['/a', '/b', '/c'])
    const written = ['b/_payload.json', 'c/index.html']
    expect(summarizePageChanges({ previous: both, pages: both, written, rebuilt: new Set(['/c', '/b']) })).toEqual({
      added: [],
      changed: ['/b', '/c'],
      removed: [],
      unchanged: 1,
    })
    // a page built again to the same bytes is unchanged
    expect(summarizePageChanges({ previous: both, pages: both, written: [], rebuilt: new Set(['/b']) })).toEqual({
      added: [],
      changed: [],
      removed: [],
      unchanged: 3,
    })
  })
})
