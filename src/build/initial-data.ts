/**
 * Initial data: fetched once per locale (a failure after the fallback is fatal,
 * with the spec's `Initial Data is unavailable: …`), prepared, and written once
 * per locale to a content-hashed file that pages reference.
 */
import { createHash } from 'node:crypto'
import type { ApiClient } from '../api/client.js'
import type { PageRenderer } from '../render/renderer.js'
import type { DataProblem } from '../shared/contract.js'
import { initialDataFile } from '../shared/layout.js'
import type { InitialData } from '../shared/types.js'
import type { LocaleData } from './types.js'

/** Initial data of a site that does not fetch it (`features.initInitialData: false`). */
const EMPTY_INITIAL_DATA: InitialData = { navigation: [], i18n: [] }

/** Raw initial data of one locale; throws the fatal error when both endpoints fail. */
export async function fetchInitialData(api: ApiClient, locale: string, enabled: boolean): Promise<unknown> {
  if (!enabled) return EMPTY_INITIAL_DATA
  const { data } = await api.getInitialData(locale)
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

/** Prepares one locale's raw initial data (the render core's `prepareInitialData`); its problems are returned for the report. */
export function prepareLocaleData(
  prepare: PageRenderer['prepareInitialData'],
  locale: string,
  raw: unknown,
): { data: LocaleData; file: { path: string; contents: string }; problems: DataProblem[] } {
  const { data: value, problems } = prepare(raw)
  const file = toInitialDataFile(locale, value)
  return { data: { locale, initialData: value, initialDataUrl: file.url }, file, problems }
}
