import { describe, expect, it } from 'vitest'
import { planKeptBuilds } from '../../../src/build/incremental/kept-builds.js'
import { isContentHashedFile } from '../../../src/shared/layout.js'

const build = (id: string, files: string[]) => ({ id, clientVersion: `c-${id}`, files })

describe('planKeptBuilds', () => {
  it('keeps the files of the last N - 1 earlier builds that this build lacks', () => {
    const earlier = [build('c', ['a.js', 'c.js']), build('b', ['a.js', 'b.js']), build('a', ['a.js', 'z.js'])]
    expect(planKeptBuilds({ current: ['a.js', 'd.js'], earlier, keepBuilds: 3 })).toEqual({
      earlier: earlier.slice(0, 2),
      keep: ['b.js', 'c.js'],
    })
    expect(planKeptBuilds({ current: ['d.js'], earlier, keepBuilds: 1 })).toEqual({ earlier: [], keep: [] })
  })

  it('counts a build that changed no content-hashed file as the one before it', () => {
    const earlier = [build('b', ['b.js']), build('a', ['a.js'])]
    expect(planKeptBuilds({ current: ['b.js'], earlier, keepBuilds: 2 })).toEqual({
      earlier: [earlier[1]],
      keep: ['a.js'],
    })
  })

  it('knows the content-hashed files', () => {
    expect(isContentHashedFile('_site/assets/entry-AB12.js')).toBe(true)
    expect(isContentHashedFile('_site/data/initial-en-1a2b.json')).toBe(true)
    expect(isContentHashedFile('_site/builds/latest.json')).toBe(false)
    expect(isContentHashedFile('about/index.html')).toBe(false)
  })
})
