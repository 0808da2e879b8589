/**
 * Initial data: fetched once per locale (a failure after the fallback is fatal,
 * with `Initial Data is unavailable: …`), prepared, and written once
 * per locale to a content-hashed file that pages reference.
 */
import { createHash } from 'node:crypto'
import type { ApiClient } from '../../api/client.js'
import { applyMediaToInitialData, type MediaFailure, type ShownIn } from '../../media/apply.js'
import type { MediaMap } from '../../media/types.js'
import type { PageRenderer } from '../../render/renderer.js'
import { langOf } from '../../runtime/languages.js'
import type { DataProblem } from '../../shared/contract.js'
import { initialDataFile } from '../../shared/layout.js'
import type { InitialData } from '../../shared/types.js'
import type { LocaleData } from '../types.js'

/**
 * Raw initial data of one locale (empty, asked of nobody, with `features.initInitialData` off); throws the fatal
 * error when both endpoints fail (or `signal` ends the requests).
 */
export async function fetchInitialData(api: ApiClient, locale: string, signal?: AbortSignal): Promise<unknown> {
  const { data } = await api.getInitialData(locale, undefined, { signal })
  return data
}

/**
 * The file of a locale's initial data, named by its content hash.
 * Example: ('pl', {...}) -> { path: '_site/data/initial-pl-1a2b3c4d5e.json', url: '/_site/data/initial-pl-1a2b3c4d5e.json' }.
 */
export function toInitialDataFile(
  locale: string,
  initialData: InitialData,
): { path: string; url: string; contents: string } {
  const contents = JSON.stringify(initialData)
  const hash = createHash('sha256').update(contents).digest('hex').slice(0, 10)
  const path = initialDataFile(locale, hash)
  return { path, url: `/${path}`, contents }
}

/**
 * Prepares one locale's raw initial data (the render core's `prepareInitialData`); its problems are returned for
 * the report. `shownIn` is filled with where it shows the files whose variants are encoded (apply.ts).
 */
export function prepareLocaleData(
  prepare: PageRenderer['prepareInitialData'],
  locale: string,
  raw: unknown,
  media?: MediaMap,
  shownIn?: ShownIn,
): { data: LocaleData; file: { path: string; contents: string }; problems: DataProblem[]; media?: MediaFailure } {
  const { data: value, problems } = prepare(raw)
  // the files it names point at their copies before it is hashed (media 'copy' or 'optimize')
  const failure = media ? applyMediaToInitialData(value, media, shownIn) : undefined
  const file = toInitialDataFile(locale, value)
  return {
    data: { locale, initialData: value, initialDataUrl: file.url },
    file,
    problems,
    ...(failure ? { media: failure } : {}),
  }
}

/** Longest list of languages named in a note (the data is the API's). */
const MAX_LANGUAGES_NAMED = 10

const quoted = (text: string, max: number): string => JSON.stringify(text.slice(0, max))

/**
 * A site configured for fewer locales than the API serves (German only, against a three-language API)
 * builds every page reached through the language menu under its own locale; without these notes it would
 * do so without a word. Notes for the languages the initial data offers that `i18n.locales` lacks, and
 * for a locale whose initial data the API marks as another language (the default locale is fetched from the
 * API's root). A language is listed when a locale has its code as language part (`pt-BR` lists `pt`), as
 * siteLanguages reads it.
 */
export function languageNotes(
  i18n: { default: string; locales: readonly string[] },
  locales: Iterable<LocaleData>,
): string[] {
  const missing = new Map<string, string>()
  const mismatched: string[] = []
  const listed = new Set(i18n.locales.map(langOf))
  for (const { locale, initialData } of locales) {
    for (const entry of Array.isArray(initialData.i18n) ? initialData.i18n : []) {
      const code = typeof entry?.twoLetterIsoCode === 'string' ? entry.twoLetterIsoCode.toLowerCase() : ''
      if (!code) continue
      if (entry.active && code !== langOf(locale))
        mismatched.push(`the API answers the ${locale} locale's initial data in ${quoted(code, 12)}`)
      if (listed.has(code) || missing.has(code) || !entry.available) continue
      missing.set(code, typeof entry.link === 'string' ? entry.link : '')
    }
  }
  const notes = mismatched.slice(0, MAX_LANGUAGES_NAMED)
  if (missing.size > 0) {
    const named = [...missing]
      .slice(0, MAX_LANGUAGES_NAMED)
      .map(([code, link]) => `${quoted(code, 12)}${link ? ` at ${quoted(link, 80)}` : ''}`)
    notes.push(
      `the API offers languages that i18n.locales (${i18n.locales.join(', ')}) does not list: ${named.join(', ')}; pages linked in them are built as ${i18n.default} pages. List them in i18n.locales to build each in its own language (docs/configuration.md)`,
    )
  }
  return notes
}
