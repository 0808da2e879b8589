import { describe, expect, it } from 'vitest'
import { unplacedLines } from '../../../src/publish/run-publish.js'
import { PUBLISH_MAX_LISTED_PAGES } from '../../../src/shared/constants.js'

describe('the log lines of what a publish could not place', () => {
  it('names each unknown uid and each unshown file', () => {
    expect(unplacedLines({ unshownFiles: ['file:/fileadmin/a.jpg'], unknownUids: [99] })).toEqual([
      'file:/fileadmin/a.jpg: no page shows this file, nothing was published for it',
      'page 99: no page of the previous build has this uid (a new page is found through the page linking to it)',
    ])
  })

  it('counts those past the first ones on one line: an event of 1,000 unknown uids logs 51 lines, not 1,000', () => {
    const unknownUids = Array.from({ length: 1_000 }, (_, i) => 5_000 + i)
    const lines = unplacedLines({ unshownFiles: [], unknownUids })
    expect(lines).toHaveLength(PUBLISH_MAX_LISTED_PAGES + 1)
    expect(lines[0]).toMatch(/^page 5000: no page of the previous build has this uid/)
    expect(lines.at(-1)).toBe(`${1_000 - PUBLISH_MAX_LISTED_PAGES} more uids no page of the previous build has`)
  })
})
