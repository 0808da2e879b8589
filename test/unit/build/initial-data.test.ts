import { describe, expect, it } from 'vitest'
import { toInitialDataFile } from '../../../src/build/crawl/initial-data.js'

describe('toInitialDataFile', () => {
  it('names the file by locale and content hash', () => {
    const file = toInitialDataFile('pl', { navigation: [], i18n: [] })
    expect(file.path).toMatch(/^_site\/data\/initial-pl-[0-9a-f]{10}\.json$/)
    expect(file.url).toBe(`/${file.path}`)
    expect(JSON.parse(file.contents)).toEqual({ navigation: [], i18n: [] })
  })

  it('changes the name when the content changes, and only then', () => {
    const a = toInitialDataFile('en', { navigation: [{ title: 'A', link: '/a' }], i18n: [] })
    const b = toInitialDataFile('en', { navigation: [{ title: 'A', link: '/a' }], i18n: [] })
    const c = toInitialDataFile('en', { navigation: [{ title: 'B', link: '/a' }], i18n: [] })
    expect(a.path).toBe(b.path)
    expect(a.path).not.toBe(c.path)
  })
})
