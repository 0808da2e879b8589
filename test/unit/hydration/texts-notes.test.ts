import { describe, expect, it } from 'vitest'
import { missingTextsNotes } from '../../../src/hydration/manifest.js'

const i18n = { default: 'en', locales: ['en', 'pl', 'de'] }

describe('missingTextsNotes', () => {
  it('is quiet when every locale has its texts, or when the site has none at all', () => {
    expect(missingTextsNotes(['de', 'en', 'pl'], i18n)).toEqual([])
    expect(missingTextsNotes([], i18n)).toEqual([])
  })

  it('is quiet for a locale served by its language (pt.ts for pt-BR)', () => {
    expect(missingTextsNotes(['en', 'pt'], { default: 'en', locales: ['en', 'pt-BR'] })).toEqual([])
  })

  it('names each locale without texts and the file it falls back to, in the order useSiteTexts() tries', () => {
    expect(missingTextsNotes(['de', 'en'], i18n)).toEqual([
      'templates/texts/ has no pl.ts: the pl pages show the texts of en.ts',
    ])
    // no default-language file: the first file the registry has
    expect(missingTextsNotes(['de', 'pl'], i18n)).toEqual([
      'templates/texts/ has no en.ts: the en pages show the texts of de.ts',
    ])
    expect(missingTextsNotes(['en', 'pl'], { default: 'pl', locales: ['pl', 'en', 'de'] })).toEqual([
      'templates/texts/ has no de.ts: the de pages show the texts of pl.ts',
    ])
  })
})
