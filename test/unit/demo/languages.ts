/** The demo's three site languages as the demo API's modules take them, for the demo unit tests. */
import type { DemoLanguage } from '../../../src/demo/types.js'

const demoLanguage = (code: string, base: string, languageId: number): DemoLanguage => ({
  languageId,
  twoLetterIsoCode: code,
  navigationTitle: code,
  base,
  direction: 'ltr',
  hreflang: code,
})

export const DEMO_LANGUAGES = [
  demoLanguage('en', '/', 0),
  demoLanguage('pl', '/pl/', 1),
  demoLanguage('de', '/de/', 2),
] as const
