import { describe, expect, it } from 'vitest'
import { toSafeSegments } from '../../../src/serve/safe-path.js'

describe('toSafeSegments (static files of serve and preview)', () => {
  it.each([
    ['/', []],
    ['/sw.js', ['sw.js']],
    ['/a/b/', ['a', 'b']],
    ['/pl/%C3%BCber', ['pl', 'über']],
    ['/icons/a%20b.png', ['icons', 'a b.png']],
  ])('%s -> %j', (input, expected) => expect(toSafeSegments(input)).toEqual(expected))

  it.each([
    '/../x',
    '/a/%2e%2e/x',
    '/a/%2E%2E%2Fx',
    '/a%2fb',
    '/a%5cb',
    '/a%00',
    '/%E0%A4%A',
    '/a\\b',
    'relative',
    '/./x',
    '/c:/x',
  ])('refuses %s', (input) => expect(toSafeSegments(input)).toBeUndefined())

  it('takes a colon in a name (a build writes slug `/a:b` to `a:b/index.html`), but on Windows', () => {
    expect(toSafeSegments('/colon%3Ax/a:b', 'linux')).toEqual(['colon:x', 'a:b'])
    expect(toSafeSegments('/colon%3Ax', 'win32')).toBeUndefined()
    expect(toSafeSegments('/c:/x', 'linux')).toBeUndefined()
  })
})
