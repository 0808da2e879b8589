/**
 * Render jobs: what happens to a fetched page between the API and the disk,
 * with no I/O. They run in the build's thread or in a render worker alike
 * (render-pool.ts); only plain data goes in and comes out.
 */

import { decodeBody, readPageAnswer } from '../../api/answer.js'
import type { RawAnswer } from '../../api/client.js'
import { linkDigest } from '../../api/link-digest.js'
import { buildIssues } from '../../errors.js'
import { applyMedia, type MediaFailure, type ShownIn } from '../../media/apply.js'
import type { MediaMap } from '../../media/types.js'
import type { PageRenderer } from '../../render/renderer.js'
import type { DataProblem, TemplateFallback } from '../../shared/contract.js'
import type { PageData } from '../../shared/types.js'
import { withLocale } from '../../shared/url.js'
import { isRecord } from '../../shared/values.js'
import type { FoundLinks } from '../crawl/crawl.js'
import { discoverFromPage } from '../crawl/discover.js'
import { renderNotFoundFile } from '../crawl/not-found.js'
import { toPageFact } from '../output/sitemap.js'
import type { BuildFailure, LocaleData, PageFact, SkippedItem } from '../types.js'
import { type OutputFile, type PageFile, type RenderContext, renderPageFiles } from './render-files.js'

/** Everything jobs share: the render context plus each locale's prepared initial data. */
export interface JobContext extends RenderContext {
  locales: ReadonlyMap<string, LocaleData>
}

export type PageJob = {
  path: string
  locale: string
  /**
   * Content hashes of the page's `index.html` and `_payload.json` in the previous output: a render worker
   * that renders the same bytes hands back no file, only its hash (the file is kept as it is).
   */
  previous?: [html: string | undefined, payload: string | undefined]
  /** The files of the page the build took into its output (media 'copy' or 'optimize'), by their API URL. */
  media?: MediaMap
} & (
  | {
      /** The API's 2xx answer to the page request, as text. */
      answer: RawAnswer
    }
  | {
      /**
       * The page's `_payload.json` of the previous build, its bytes (`--only`): the page is rendered again
       * from the data it kept, already prepared, with no API request.
       */
      payload: Uint8Array
    }
)

export type PageOutput =
  | {
      type: 'page'
      files: PageFile[]
      fact: PageFact
      /** The CMS page's uid (its `id`): `--only`, slug history and diagnostics follow it. */
      uid: number
      /** The pages it links to (its own path as `from`). */
      links: FoundLinks
      skipped: SkippedItem[]
      /** Layouts and content element types rendered with `Default`, once per use. */
      fallbacks: TemplateFallback[]
      /** What other pages can show of it (api/link-digest.ts); absent for a page rendered from its kept payload. */
      linkDigest?: string
      /** Where it shows each file whose variants the build encodes (media 'optimize'), when there is one. */
      shownIn?: ShownIn
      renderMs: number
    }
  /** The answer was a redirect record. */
  | { type: 'redirect'; redirectUrl: string; statusCode: number; renderMs: number }
  | ({ type: 'failed'; renderMs: number } & Pick<BuildFailure, 'kind' | 'status' | 'reason' | 'pageUid' | 'elementUid'>)

export interface NotFoundJob {
  locale: string
  /** The API's 404 page body of the locale, when it sent one. */
  raw?: unknown
  /** The build's answers for the files it names (media 'copy' or 'optimize'). */
  media?: MediaMap
}

export interface NotFoundOutput {
  file: OutputFile
  skipped: SkippedItem[]
  /** A file it names that the build could not take: the build fails. */
  failed?: MediaFailure
  /** The 404 page's uid, when the API sent one, and where it shows files whose variants are encoded. */
  pageUid?: number
  shownIn?: ShownIn
}

/** A data problem of a page (or of initial data) as a skipped item of the report: what, where, which records. */
export const toSkippedItem = (item: string, problem: DataProblem, pageUid?: number): SkippedItem => ({
  kind: problem.kind,
  item,
  reason: problem.message,
  ...(pageUid === undefined ? {} : { pageUid }),
  ...(problem.elementUid === undefined ? {} : { elementUid: problem.elementUid }),
  ...(problem.at === undefined ? {} : { template: problem.at }),
})

const localeOf = (ctx: JobContext, locale: string): LocaleData => {
  const data = ctx.locales.get(locale)
  if (!data) throw new Error(`no initial data for locale ${locale}`)
  return data
}

/** The page data a previous build's payload holds, as it was read from disk (untrusted); undefined when it holds none. */
function readKeptPage(payload: Uint8Array): unknown {
  try {
    const body = JSON.parse(decodeBody(payload)) as unknown
    return isRecord(body) && isRecord(body.page) ? body.page : undefined
  } catch {
    return undefined
  }
}

/**
 * The page data of a job, not yet prepared, and the link digest of an API answer; or the output of a job that
 * goes no further (a redirect, an answer that is no page, a kept payload that holds none).
 */
function readJob(job: PageJob, renderMs: () => number): { raw: unknown; digest?: string } | PageOutput {
  if ('payload' in job) {
    // a kept payload is a file of OUT: prepared and sanitised again, exactly as an API answer is
    const raw = readKeptPage(job.payload)
    return raw === undefined ? { type: 'failed', ...buildIssues.keptDataMissing(), renderMs: renderMs() } : { raw }
  }
  let raw: unknown
  try {
    const result = readPageAnswer(job.answer)
    if (result.type === 'redirect')
      return {
        type: 'redirect',
        redirectUrl: result.redirectUrl,
        statusCode: result.statusCode,
        renderMs: renderMs(),
      }
    raw = result.data
  } catch (error) {
    return { type: 'failed', ...buildIssues.api(error), renderMs: renderMs() }
  }
  return { raw, digest: linkDigest(raw as Record<string, unknown>) }
}

/**
 * Reads the answer, then prepares, renders and reads the links of one page (or renders a page again from
 * the payload a previous build kept). API and render errors come back as a failed output.
 */
export function runPageJob(ctx: JobContext, job: PageJob): PageOutput {
  const started = performance.now()
  const renderMs = () => performance.now() - started
  const read = readJob(job, renderMs)
  if ('type' in read) return read
  const { raw, digest } = read
  let prepared: ReturnType<PageRenderer['preparePage']>
  try {
    prepared = ctx.renderer.preparePage(raw)
  } catch (error) {
    return renderFailure(error, renderMs)
  }
  const { page, problems } = prepared
  if (!page)
    return {
      type: 'failed',
      ...buildIssues.notAPage(problems.map((problem) => problem.message)),
      renderMs: renderMs(),
    }
  const shownIn: ShownIn = new Map()
  const media = job.media ? applyMedia(page, job.media, ctx.site.baseUrl, shownIn) : undefined
  if (media) return { type: 'failed', status: 502, pageUid: page.id, ...media, renderMs: renderMs() }
  return renderPage(ctx, { job, page, problems, renderMs, digest, shownIn })
}

const renderFailure = (error: unknown, renderMs: () => number, pageUid?: number): PageOutput => ({
  type: 'failed',
  ...buildIssues.renderFailed(error),
  ...(pageUid === undefined ? {} : { pageUid }),
  renderMs: renderMs(),
})

/** Renders a prepared page and reads its links and sitemap facts. */
function renderPage(
  ctx: JobContext,
  input: {
    job: PageJob
    page: PageData
    problems: readonly DataProblem[]
    renderMs: () => number
    digest: string | undefined
    shownIn: ShownIn
  },
): PageOutput {
  const { job, page, problems, renderMs, digest, shownIn } = input
  const { path } = job
  try {
    const locale = localeOf(ctx, job.locale)
    const rendered = renderPageFiles(ctx, { path, locale, page })
    const options = { baseUrl: ctx.site.baseUrl, locales: ctx.site.i18n.locales }
    const discovered = discoverFromPage(page, path, options)
    // Unsafe rich-text links are reported by the sanitiser (in `problems`); unsafe paths by discovery.
    const skipped: SkippedItem[] = [
      ...[...problems, ...rendered.problems].map((problem) => toSkippedItem(path, problem, page.id)),
      ...discovered.refused,
    ]
    const fact = toPageFact({ path, locale: job.locale, page, site: ctx.site })
    if (fact.canonical !== undefined)
      skipped.push({
        ...buildIssues.canonicalElsewhere(fact.canonical),
        item: path,
        from: path,
        pageUid: page.id,
      })
    return {
      type: 'page',
      files: rendered.files,
      fact,
      uid: page.id,
      links: discovered.found,
      skipped,
      fallbacks: rendered.fallbacks,
      ...(digest === undefined ? {} : { linkDigest: digest }),
      ...(shownIn.size === 0 ? {} : { shownIn }),
      renderMs: renderMs(),
    }
  } catch (error) {
    return renderFailure(error, renderMs, page.id)
  }
}

/** A locale's 404 page. */
export function runNotFoundJob(ctx: JobContext, job: NotFoundJob): NotFoundOutput {
  const shownIn: ShownIn = new Map()
  const { file, problems, pageUid, failed } = renderNotFoundFile(ctx, {
    locale: localeOf(ctx, job.locale),
    raw: job.raw,
    i18n: ctx.site.i18n,
    media: job.media,
    shownIn,
  })
  const item = withLocale('/404', job.locale, ctx.site.i18n)
  return {
    file,
    skipped: problems.map((problem) => toSkippedItem(item, problem, pageUid)),
    ...(failed ? { failed: { ...failed, ...(pageUid === undefined ? {} : { pageUid }) } } : {}),
    ...(pageUid === undefined ? {} : { pageUid }),
    ...(shownIn.size === 0 ? {} : { shownIn }),
  }
}
