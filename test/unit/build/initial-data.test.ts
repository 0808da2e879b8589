import { describe, expect, it } from 'vitest'
import { languageNotes, toInitialDataFile } from '../../../src/build/crawl/initial-data.js'
import type { LocaleData } from '../../../src/build/types.js'
import type { LanguageEntry } from '../../../src/shared/types.js'

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

describe('languageNotes', () => {
  const entry = (code: string, link: string, active: 0 | 1): LanguageEntry => ({
    languageId: 0,
    twoLetterIsoCode: code,
    navigationTitle: code,
    link,
    active,
    available: 1,
  })
  const data = (locale: string, active: string): LocaleData => ({
    locale,
    initialDataUrl: `/_site/data/initial-${locale}.json`,
    initialData: {
      navigation: [],
      i18n: [
        entry('en', '/', active === 'en' ? 1 : 0),
        entry('pt', '/pt-BR/', active === 'pt' ? 1 : 0),
        entry('de', '/de/', 0),
      ],
    },
  })

  it('takes a locale with a region as listing its language: pt-BR lists pt', () => {
    const i18n = { default: 'en', locales: ['en', 'pt-BR'] }
    expect(languageNotes(i18n, [data('en', 'en'), data('pt-BR', 'pt')])).toEqual([
      'the API offers languages that i18n.locales (en, pt-BR) does not list: "de" at "/de/"; pages linked in them are built as en pages. List them in i18n.locales to build each in its own language (docs/configuration.md)',
    ])
  })

  it('says nothing when every language the API offers is listed, with or without a region', () => {
    const i18n = { default: 'en-US', locales: ['en-US', 'pt-BR', 'de'] }
    expect(languageNotes(i18n, [data('en-US', 'en'), data('pt-BR', 'pt'), data('de', '')])).toEqual([])
  })
})
