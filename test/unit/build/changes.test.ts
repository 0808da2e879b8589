import { describe, expect, it } from 'vitest'
import { summarizePageChanges } from '../../../src/build/incremental/changes.js'

describe('summarizePageChanges (issue 12, item 5)', () => {
  it('sorts pages into added, changed (a file written), removed and unchanged', () => {
    expect(
      summarizePageChanges({
        previous: ['/a', '/b', '/pl/c', '/d'],
        pages: ['/b', '/pl/c', '/d', '/e'],
        written: ['b/index.html', 'pl/c/_payload.json', 'e/index.html', 'e/_payload.json'],
      }),
    ).toEqual({ added: ['/e'], changed: ['/b', '/pl/c'], removed: ['/a'], unchanged: 1 })
  })

  it('counts every page as added without a previous build', () => {
    expect(summarizePageChanges({ previous: undefined, pages: ['/', '/a'], written: [] })).toEqual({
      added: ['/', '/a'],
      changed: [],
      removed: [],
      unchanged: 0,
    })
  })

  it('reports a page that moved as a slug change, not as removed and added', () => {
    expect(
      summarizePageChanges({
        previous: ['/a', '/b'],
        pages: ['/a2', '/b'],
        written: ['a2/index.html', 'a2/_payload.json'],
        moved: [{ from: '/a', to: '/a2' }],
      }),
    ).toEqual({ added: [], changed: [], removed: [], unchanged: 1 })
  })
})
