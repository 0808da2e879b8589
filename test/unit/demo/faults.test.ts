import { describe, expect, it } from 'vitest'
import { applyDemoEdits, findDemoFault, initialDataFault, parseDemoFault } from '../../../src/demo/faults.js'
import type { DemoFault } from '../../../src/demo/types.js'

const url = (rawPath: string, rawQuery = '', path = rawPath) => ({ rawPath, rawQuery, path })

describe('findDemoFault', () => {
  const faults: DemoFault[] = [
    { path: '/', query: 'type=834', kind: 'status503' },
    { path: '/de/über-uns', kind: 'reset' },
    { path: '/pl/o-nas', kind: 'hang' },
  ]

  it('matches the path exactly and the query as a substring of the raw query', () => {
    expect(findDemoFault(faults, url('/', 'type=834'))?.kind).toBe('status503')
    expect(findDemoFault(faults, url('/', 'a=1&type=834'))?.kind).toBe('status503')
    expect(findDemoFault(faults, url('/'))).toBeUndefined()
    expect(findDemoFault(faults, url('/pl/o-nas', 'x=1'))?.kind).toBe('hang')
    expect(findDemoFault(faults, url('/pl/o-nas/x'))).toBeUndefined()
  })

  it('matches the decoded path as well as the path as sent', () => {
    expect(findDemoFault(faults, url('/de/%C3%BCber-uns', '', '/de/über-uns'))?.kind).toBe('reset')
  })

  it('takes the first matching rule', () => {
    expect(
      findDemoFault(
        [
          { path: '/a', kind: 'html' },
          { path: '/a', kind: 'status500' },
        ],
        url('/a'),
      )?.kind,
    ).toBe('html')
  })
})

describe('applyDemoEdits', () => {
  it('applies every edit whose path and query match, in order', () => {
    const edits = [
      { path: '/', query: 'type=834', find: 'Home', replace: 'Start' },
      { path: '/', find: 'Start', replace: 'Begin' },
      { path: '/a', find: 'Home', replace: 'never' },
    ]
    expect(applyDemoEdits(edits, url('/', 'type=834'), '{"title":"Home"}')).toBe('{"title":"Begin"}')
    expect(applyDemoEdits(edits, url('/'), '{"title":"Home","x":"Start"}')).toBe('{"title":"Home","x":"Begin"}')
    expect(applyDemoEdits([], url('/'), '{}')).toBe('{}')
  })
})

describe('fault flags', () => {
  it('names --fail-initial and its value when the status is none it knows', () => {
    expect(initialDataFault('503')).toMatchObject({ path: '*', kind: 'status503' })
    for (const status of ['200', 'abc', 'constructor'])
      expect(() => initialDataFault(status), status).toThrow(
        `--fail-initial expects STATUS one of 404, 500, 503, reset, hang, malformed-json, html; got "${status}"`,
      )
    // a name of an object's own property is no status either
    expect(() => parseDemoFault('/a=toString')).toThrow('--fail expects PATH=STATUS')
  })
})
