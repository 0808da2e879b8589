/**
 * What the demo API answers for a parsed URL (no I/O, no sockets):
 * - `/fileadmin/...`                 a file from the start-up index;
 * - `/typo3/...`                     a small HTML stand-in for the TYPO3 backend (edit links of preview mode);
 * - any `type` other than '' / '0'   on a page path or locale root: that locale's initial data;
 * - a page path                      the page JSON (200);
 * - a redirect source                `{ redirectUrl, statusCode }` with HTTP 200, as EXT:headless sends it;
 * - anything else                    the locale's 404 page JSON with HTTP 404, as TYPO3's page error handler sends it.
 */
import { escapeHtml } from '../shared/escape.js'
import type { DemoFile } from './files.js'
import { type DemoUrl, languageOfPath, prefixOf } from './paths.js'
import { type DemoSource, ORIGIN_TOKEN } from './types.js'

export type DemoAnswer =
  | { kind: 'json'; status: number; body: string }
  | { kind: 'html'; status: number; body: string }
  | { kind: 'file'; file: DemoFile }

export interface DemoAnswerInput {
  source: DemoSource
  files: ReadonlyMap<string, DemoFile>
  url: DemoUrl
  /** `http://127.0.0.1:PORT`, put in place of ORIGIN_TOKEN. */
  origin: string
}

/** `type=834` (or any other page type but 0) asks for initial data, as TYPO3 page types do. */
export const isInitialDataType = (type: string | undefined): boolean =>
  type !== undefined && type !== '' && type !== '0'

export function answerDemoRequest({ source, files, url, origin }: DemoAnswerInput): DemoAnswer {
  const { path, query } = url
  const json = (status: number, body: string): DemoAnswer => ({
    kind: 'json',
    status,
    body: body.replaceAll(ORIGIN_TOKEN, origin),
  })
  const language = languageOfPath(path, source.languages)
  const notFound = (): DemoAnswer => json(404, source.notFound(language))

  if (path.startsWith('/fileadmin/')) {
    const file = files.get(path)
    return file ? { kind: 'file', file } : notFound()
  }
  if (path === '/typo3' || path.startsWith('/typo3/'))
    return { kind: 'html', status: 200, body: renderBackendStub(url) }

  const page = source.page(path)
  if (isInitialDataType(query.type)) {
    const isLocaleRoot = path === (prefixOf(language) || '/')
    return page !== undefined || isLocaleRoot ? json(200, source.initialData(language)) : notFound()
  }
  if (page !== undefined) return json(200, page)
  const redirect = source.redirect(path)
  if (redirect) return json(200, JSON.stringify(redirect))
  return notFound()
}

/** The page an editor lands on after clicking an edit button in preview mode. */
function renderBackendStub(url: DemoUrl): string {
  const record = Object.keys(url.query).find((key) => key.startsWith('edit[')) ?? ''
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>TYPO3 backend (demo)</title></head><body>',
    '<h1>TYPO3 backend (demo)</h1>',
    '<p>The demo content API has no backend. A real TYPO3 would now open the editing form for:</p>',
    `<p><code>${escapeHtml(record || url.path)}</code></p>`,
    '</body></html>',
  ].join('\n')
}
