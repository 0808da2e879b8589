/**
 * The localised 404 pages (`404.html`, `pl/404.html`, …). When the API has an
 * error handler that answers unknown paths with a page (TYPO3's page error handler), that
 * page's content is rendered with status 404; otherwise the plain error page.
 */
import { readPageAnswer } from '../../api/answer.js'
import type { ApiClient } from '../../api/client.js'
import { buildIssues, errors } from '../../errors.js'
import { applyMedia, type MediaFailure, type ShownIn } from '../../media/apply.js'
import type { MediaMap } from '../../media/types.js'
import type { DataProblem } from '../../shared/contract.js'
import { notFoundFile } from '../../shared/layout.js'
import type { PageData } from '../../shared/types.js'
import { type LocaleOptions, withLocale } from '../../shared/url.js'
import { isRecord } from '../../shared/values.js'
import { assembleStatic, documentBytes, type OutputFile, type RenderContext } from '../render-threads/render-files.js'
import type { LocaleData } from '../types.js'
import { type ApiAnswer, fetchPage } from './fetch-page.js'

/** A path no site has: asking for it gets the API's 404 answer of a locale. */
const NOT_FOUND_PROBE_PATH = '/__site-404__'

/** The API's 404 page body of a locale, when it sends one; else undefined (a note says why). */
export async function fetchNotFoundBody(
  api: ApiClient,
  locale: string,
  i18n: LocaleOptions,
  signal?: AbortSignal,
): Promise<{ raw?: unknown; note?: string }> {
  const answer = await readProbe(api, withLocale(NOT_FOUND_PROBE_PATH, locale, i18n), signal)
  if (answer.type === 'page') return { raw: answer.raw }
  // an error handler's page has an id like any page; a bare `{ error }` body is no page
  if (answer.type === 'not-found' && isRecord(answer.data) && answer.data.id !== undefined) return { raw: answer.data }
  if (answer.type === 'error')
    return {
      note: `${locale}: the API's 404 page could not be fetched (${answer.reason}); the plain error page is used`,
    }
  return {}
}

/** The probe's answer, a 2xx one read here (a page, or nothing for a redirect record). */
async function readProbe(
  api: ApiClient,
  path: string,
  signal: AbortSignal | undefined,
): Promise<Exclude<ApiAnswer, { type: 'answer' }> | { type: 'page'; raw: unknown } | { type: 'redirect' }> {
  const answer = await fetchPage(api, path, signal)
  if (answer.type !== 'answer') return answer
  try {
    const result = readPageAnswer(answer.answer)
    return result.type === 'page' ? { type: 'page', raw: result.data } : { type: 'redirect' }
  } catch (error) {
    return { type: 'error', ...buildIssues.api(error) }
  }
}

export function renderNotFoundFile(
  ctx: RenderContext,
  input: { locale: LocaleData; raw: unknown; i18n: LocaleOptions; media?: MediaMap; shownIn?: ShownIn },
): { file: OutputFile; problems: DataProblem[]; pageUid?: number; failed?: MediaFailure } {
  const { locale, raw, i18n } = input
  const path = withLocale('/404', locale.locale, i18n)
  const problems: DataProblem[] = []
  let page: PageData | null = null
  if (raw !== undefined) {
    const prepared = ctx.renderer.preparePage(raw)
    page = prepared.page
    problems.push(...prepared.problems)
  }
  // its files point at their copies, as a page's (media 'copy' or 'optimize')
  const failed = page && input.media ? applyMedia(page, input.media, ctx.site.baseUrl, input.shownIn) : undefined
  const error = { status: 404, message: errors.pageNotFound(path).message }
  const { document, problems: renderProblems } = assembleStatic(ctx, { path, locale, status: 404, page, error })
  return {
    file: { path: notFoundFile(locale.locale, i18n), contents: documentBytes(ctx, document) },
    problems: [...problems, ...renderProblems],
    ...(page ? { pageUid: page.id } : {}),
    ...(failed ? { failed } : {}),
  }
}
