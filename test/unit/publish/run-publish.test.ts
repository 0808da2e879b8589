import { describe, expect, it } from 'vitest'
import { publishedLine, publishRecord, unplacedLines } from '../../../src/publish/run-publish.js'
import { PUBLISH_MAX_LISTED_PAGES } from '../../../src/shared/constants.js'

describe('the log lines of what a publish could not place', () => {
  it('names each unknown uid, each unknown page path and each unshown file', () => {
    expect(
      unplacedLines({ unshownFiles: ['file:/fileadmin/a.jpg'], unknownUids: [99], unknownPaths: ['/pl/kontaktt'] }),
    ).toEqual([
      'file:/fileadmin/a.jpg: no page shows this file, nothing was published for it',
      'page 99: no page of the previous build has this uid (a new page is found through the page linking to it)',
      '/pl/kontaktt: no page of the previous build has this path, nor has the API, nothing was published for it',
    ])
  })

  it('counts those past the first ones on one line: an event of 1,000 unknown uids logs 51 lines, not 1,000', () => {
    const unknownUids = Array.from({ length: 1_000 }, (_, i) => 5_000 + i)
    const lines = unplacedLines({ unshownFiles: [], unknownUids, unknownPaths: [] })
    expect(lines).toHaveLength(PUBLISH_MAX_LISTED_PAGES + 1)
    expect(lines[0]).toMatch(/^page 5000: no page of the previous build has this uid/)
    expect(lines.at(-1)).toBe(`${1_000 - PUBLISH_MAX_LISTED_PAGES} more uids no page of the previous build has`)
  })
})

describe('the log line of a publish', () => {
  const batch = (upTo: number, pages: string[]) => ({
    pages: new Set(pages),
    full: false,
    firstAt: Date.now() - 1200,
    lastAt: Date.now() - 1200,
    upTo,
    events: 1,
  })
  const outcome = { changed: 1, filesUploaded: 4, deleted: 0, buildMs: 150, deployMs: 40 }

  it("names the time from the first edit of a batch of webhooks' events", () => {
    const edited = batch(7, ['12'])
    expect(publishedLine(edited, publishRecord(edited, outcome), undefined)).toMatch(
      /^published 1 page\(s\): 12: 1 changed, 4 files written, \d+ ms from the first edit \(build 150 ms, deploy 40 ms\)$/,
    )
  })

  it('names no edit for a publish of its own (the check at start, a scheduled reconcile): none came', () => {
    const own = batch(0, [])
    expect(publishedLine(own, publishRecord(own, outcome), undefined)).toBe(
      'published the check at start: 1 changed, 4 files written (build 150 ms, deploy 40 ms)',
    )
  })
})
