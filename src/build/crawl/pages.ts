/**
 * One path through the build: fetch (holding an API slot only while waiting on
 * the API), then render (render-jobs.ts, in a worker or inline) and write
 * outside the slot. Page data lives only for the duration of this call; what
 * stays is a PageRecord and the paths it links to. In a partial build (`--only`,
 * reuse.ts) a path the plan does not ask of the API is kept as the previous build
 * wrote it, or rendered again from the payload it kept.
 */

import type { LimitFunction } from 'p-limit'
import type { ApiClient } from '../../api/client.js'
import { recheckAt } from '../../api/freshness.js'
import type { ResolvedSite } from '../../config/types.js'
import { buildIssues } from '../../errors.js'
import { findFileRefs, findFileUrls } from '../../media/scan.js'
import type { MediaService } from '../../media/service.js'
import { readRegularFile } from '../../project/untrusted-file.js'
import { redirectPayload } from '../../render/payload.js'
import { MAX_FILE_REFS_PER_PAGE } from '../../shared/constants.js'
import { checkRedirectTarget } from '../../shared/redirect-target.js'
import { getLocaleFromPath, toHtmlFile, toPayloadFile, toSiteUrl } from '../../shared/url.js'
import type { PathSource, ReusePlan } from '../incremental/reuse.js'
import { byteLengthOf, type PageWriter, resolveInside } from '../output/write.js'
import type { PageTable } from '../page-table.js'
import type { PageFile } from '../render-threads/render-files.js'
import type { PageJob, PageOutput } from '../render-threads/render-jobs.js'
import type { RenderService } from '../render-threads/render-pool.js'
import type { BuildState } from '../state.js'
import type { CmsSource, PageRecord } from '../types.js'
import type { FoundLinks, LinkOrigin } from './crawl.js'
import { type ApiAnswer, fetchPage } from './fetch-page.js'
import { renderRedirectHtml } from './redirect.js'

export interface PagePipeline {
  render: RenderService
  site: ResolvedSite
  clientVersion: string
  api: ApiClient
  /** The API's share of the concurrency: held while a request is in flight, nothing else. */
  apiSlot: LimitFunction
  /** Page answers asked ahead of the build (prefetch.ts), each taken once. */
  prefetched?: Map<string, Promise<ApiAnswer>> | undefined
  writer: PageWriter
  state: BuildState
  originOf(path: string): LinkOrigin
  /** Where the crawl found a path (the page or initial data linking to it), for its failures; {} when not known. */
  sourceOf(path: string): CmsSource
  /** Largest `index.html` of a page, in bytes (`build.maxPageBytes`): a larger one fails and stops the crawl. */
  maxPageBytes: number
  /** Starts no further page (a limit was reached). */
  stopCrawl(): void
  /** Aborts requests in flight when the build is interrupted. */
  signal?: AbortSignal
  /** A partial build's plan: how each path is obtained (see reuse.ts); without it every path is fetched. */
  reuse?: ReusePlan
  /** The previous output the plan's kept pages are read from. */
  outDir: string
  /** The build's one string per path (see BuildRun.pool). */
  intern: (path: string) => string
  /** The API's origin (`https://cms.example`): files on it are recorded by their path (shared/file-refs.ts). */
  apiOrigin: string
  /** Takes the CMS files pages name into the output (media 'copy' or 'optimize'); without it they stay links. */
  media?: MediaService
}

const elapsed = (since: number): number => performance.now() - since

type AskContext = Pick<PagePipeline, 'api' | 'apiSlot' | 'state' | 'signal' | 'prefetched'>

/** One page request, holding an API slot while it waits. */
const ask = (p: AskContext, path: string): Promise<ApiAnswer> =>
  p.apiSlot(async () => {
    const started = performance.now()
    const result = await fetchPage(p.api, path, p.signal)
    p.state.time('apiWaitMs', elapsed(started))
    return result
  })

/** A page's answer: the one asked ahead of the build (prefetch.ts, taken once; asked again when it failed), or a request. */
export function askApi(p: AskContext, path: string): Promise<ApiAnswer> {
  const ahead = p.prefetched?.get(path)
  if (!ahead) return ask(p, path)
  p.prefetched!.delete(path)
  return ahead.then((answer) => (answer.type === 'error' ? ask(p, path) : answer))
}

/**
 * A rendered page as the build keeps it. The crawl keeps its links' paths, so they are pooled, in place:
 * the output is this build's own copy (a render worker's message, or an inline job's fresh result).
 */
function toRecord(p: PagePipeline, output: Extract<PageOutput, { type: 'page' }>, known: KnownFacts): PageRecord {
  const { fact, links } = output
  links.from = p.intern(links.from)
  for (const list of [links.nav, links.content]) for (let i = 0; i < list.length; i++) list[i] = p.intern(list[i]!)
  const record: PageRecord = { ...fact, uid: output.uid, links: { nav: links.nav, content: links.content } }
  if (known.fileRefs.length) record.fileRefs = known.fileRefs.slice(0, MAX_FILE_REFS_PER_PAGE)
  const digest = output.linkDigest ?? known.linkDigest
  if (digest) record.linkDigest = digest
  return record
}

/**
 * What a page's record takes from beside its render: the CMS files its answer names (read from the answer's
 * bytes), and for a page rendered from its kept payload, the link digest its answer had.
 */
interface KnownFacts {
  fileRefs: string[]
  linkDigest?: string
}

const FETCH: PathSource = { type: 'fetch' }

/**
 * Fetches (or reuses), renders and writes one path; resolves to the paths it links to. Never rejects. A page
 * kept as it is answers at once, without a promise (tens of thousands in an `--only` build of a large site).
 */
export function buildPath(p: PagePipeline, path: string): FoundLinks | undefined | Promise<FoundLinks | undefined> {
  const source = p.reuse?.decide(path) ?? FETCH
  // a page that shows a file missing or changed in the previous output is asked again, its file taken again
  if (source.type !== 'fetch' && p.media && !p.media.kept(source.from.fileRefsOf(path))) return fetchAndBuild(p, path)
  switch (source.type) {
    case 'keep': {
      // a previous page's links, as its answer gave them (by id: most of them the crawl knows already), and its uid
      // (a broken link it holds is named by its page, as in a full build)
      const ids = keepPage(p, path, source.from)
      if (ids) {
        const found: FoundLinks = { from: path, nav: [], content: [], ids: { pool: source.from.pool, ...ids } }
        const pageUid = source.from.uidOf(path)
        if (pageUid !== undefined) found.pageUid = pageUid
        return found
      }
      break
    }
    case 'render': {
      const known = { fileRefs: source.from.fileRefsOf(path), linkDigest: source.from.linkDigestOf(path) }
      return renderKeptPage(p, { path, locale: source.locale, known }).then((kept) =>
        kept ? kept.found : fetchAndBuild(p, path),
      )
    }
  }
  // Nothing usable kept for this path: the API is asked, as in a full build.
  return fetchAndBuild(p, path)
}

/**
 * Leaves a previous page's files and record as they are; its links (pool ids of `from`'s pool), or undefined
 * when the previous output lacks a file.
 */
function keepPage(p: PagePipeline, path: string, from: PageTable): ReturnType<PageTable['linkIdsOf']> {
  const html = from.fileHash(path, 0)
  const payload = from.fileHash(path, 1)
  if (!html || !payload || !p.writer.keep(toHtmlFile(path), html) || !p.writer.keep(toPayloadFile(path), payload))
    return undefined
  return p.state.keepPage(from, path) ? from.linkIdsOf(path) : undefined
}

/**
 * Renders a previous page again from its payload (no API request) and builds it as one from the API, held to the
 * same limits; undefined when that is not possible (the API is asked then).
 */
async function renderKeptPage(
  p: PagePipeline,
  page: { path: string; locale: string; known: KnownFacts },
): Promise<{ found: FoundLinks | undefined } | undefined> {
  // only a payload on disk as the previous build wrote it (else the API is asked); a regular file of OUT,
  // read without following a link or blocking, and no larger than a page may be;
  // its bytes go to the render worker without a copy (see render-pool.ts), where they are prepared again
  if (p.writer.previousHash(toPayloadFile(page.path)) === undefined) return undefined
  const read = await readRegularFile(resolveInside(p.outDir, toPayloadFile(page.path)), p.maxPageBytes)
  if (read.type === 'refused') return undefined
  const job: PageJob = {
    path: page.path,
    locale: page.locale,
    payload: read.bytes,
    previous: previousFiles(p, page.path),
  }
  return renderJob(p, job, async (output) =>
    output.type === 'page' ? { found: await buildRendered(p, job, output, page.known) } : undefined,
  )
}

async function fetchAndBuild(p: PagePipeline, path: string): Promise<FoundLinks | undefined> {
  const answer = p.reuse?.takeAnswer(path) ?? (await askApi(p, path))
  const locale = getLocaleFromPath(path, p.site.i18n)
  switch (answer.type) {
    case 'answer': {
      const at = recheckAt(answer.answer.headers, answer.receivedAt)
      if (at !== undefined) p.state.recheck.set(path, at)
      const { body } = answer.answer
      const uses = findFileUrls(body)
      const fileRefs = findFileRefs(body, uses, p.apiOrigin)
      const media = await p.media?.resolve(uses, path)
      const job: PageJob = { path, locale, answer: answer.answer, previous: previousFiles(p, path), media }
      return renderJob(p, job, (output) => buildRendered(p, job, output, { fileRefs }))
    }
    case 'not-found':
      p.state.notFound.push({ path, status: answer.status })
      return undefined
    case 'error':
      p.state.fail({ kind: answer.kind, path, status: answer.status, reason: answer.reason, ...p.sourceOf(path) })
      return undefined
  }
}

async function writeFiles(p: PagePipeline, path: string, files: PageFile[], pageUid?: number): Promise<boolean> {
  const started = performance.now()
  try {
    await Promise.all(
      files.map(async (file) => {
        if (file.contents !== undefined) return p.writer.write(file.path, file.contents, file.hash)
        if (!p.writer.keep(file.path)) throw new Error(`the previous output has no ${file.path} to keep`)
        return 0
      }),
    )
    return true
  } catch (error) {
    p.state.fail({ ...buildIssues.writeFailed(error), path, pageUid })
    return false
  } finally {
    p.state.time('writeMs', elapsed(started))
  }
}

/** The hashes of a page's files in the previous output, for its render job (unchanged ones are not handed back). */
function previousFiles(p: PagePipeline, path: string): PageJob['previous'] {
  const html = p.writer.previousHash(toHtmlFile(path))
  const payload = p.writer.previousHash(toPayloadFile(path))
  return html === undefined && payload === undefined ? undefined : [html, payload]
}

/** Renders a job and hands its output to `use`, its render time counted. See RenderService.page for how long its files' bytes stay valid. */
function renderJob<T>(p: PagePipeline, job: PageJob, use: (output: PageOutput) => T | Promise<T>): Promise<T> {
  return p.render.page(job, (output) => {
    p.state.time('renderMs', output.renderMs)
    return use(output)
  })
}

/** A rendered page's files written, its redirect or its failure recorded. */
async function buildRendered(
  p: PagePipeline,
  job: PageJob,
  output: PageOutput,
  known: KnownFacts,
): Promise<FoundLinks | undefined> {
  if (output.type === 'redirect')
    return buildRedirect(p, {
      path: job.path,
      locale: job.locale,
      redirectUrl: output.redirectUrl,
      statusCode: output.statusCode,
    })
  if (output.type === 'failed') {
    const { type: _failed, renderMs: _ms, ...failure } = output
    // an answer that is no page fails like one that never came: named with where the crawl found the page
    const source = failure.kind.startsWith('API_') ? p.sourceOf(job.path) : {}
    p.state.fail({ ...source, ...failure, path: job.path })
    return undefined
  }
  const html = output.files.find((file) => file.path === toHtmlFile(job.path))
  // A file handed back without contents has the bytes of the previous output's, which was within the limit.
  const htmlBytes = html?.contents === undefined ? 0 : byteLengthOf(html.contents)
  if (htmlBytes > p.maxPageBytes) {
    p.stopCrawl()
    p.state.fail({ ...buildIssues.pageTooLarge(htmlBytes, p.maxPageBytes), path: job.path, pageUid: output.uid })
    return undefined
  }
  return finishPage(p, job.path, output, known)
}

/** Writes a rendered page's files and records it. */
async function finishPage(
  p: PagePipeline,
  path: string,
  output: Extract<PageOutput, { type: 'page' }>,
  known: KnownFacts,
): Promise<FoundLinks | undefined> {
  for (const item of output.skipped) p.state.skip(item)
  p.state.fellBack(path, output.fallbacks)
  if (output.shownIn) p.media?.rendered(path, { pageUid: output.uid }, output.shownIn)
  if (!(await writeFiles(p, path, output.files, output.uid))) return undefined
  p.state.addPage(toRecord(p, output, known))
  return output.links
}

/** A redirect's page, payload and `_redirects` entry: the API's redirect records and slug history alike. */
export async function buildRedirect(
  p: PagePipeline,
  input: { path: string; locale: string; redirectUrl: string; statusCode: number },
): Promise<FoundLinks | undefined> {
  const { path, locale, statusCode } = input
  const target = checkRedirectTarget(input.redirectUrl, p.site.baseUrl, path)
  if (target.type === 'refused') {
    p.state.skip({ ...buildIssues.redirectRefused(target.reason), item: `${path} -> ${input.redirectUrl}`, from: path })
    return undefined
  }
  const canonical = target.type === 'internal' ? toSiteUrl(target.to, p.site.baseUrl) : target.to
  const payload = redirectPayload({ clientVersion: p.clientVersion, locale, path, to: target.to, statusCode })
  // No page at the old path unless asked for: Netlify would serve it instead of the `_redirects` rule.
  const files: PageFile[] = [{ path: toPayloadFile(path), contents: JSON.stringify(payload) }]
  if (p.site.build.redirectPages)
    files.push({ path: toHtmlFile(path), contents: renderRedirectHtml({ to: target.to, canonical }) })
  if (!(await writeFiles(p, path, files))) return undefined
  p.state.redirects.push({ from: path, to: target.to, statusCode })
  if (target.type !== 'internal' || !target.page) return undefined
  // the target counts as found where the redirecting path was
  const found: FoundLinks = { from: path, nav: [], content: [] }
  found[p.originOf(path) === 'nav' ? 'nav' : 'content'].push(target.path)
  return found
}
