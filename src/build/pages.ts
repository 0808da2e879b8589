/**
 * One path through the build: fetch (holding an API slot only while waiting on
 * the API), then render (render-jobs.ts, in a worker or inline) and write
 * outside the slot. Page data lives only for the duration of this call; what
 * stays is a PageFact and the paths it links to.
 */
import type { LimitFunction } from 'p-limit'
import type { ApiClient } from '../api/client.js'
import type { ResolvedSite } from '../config/types.js'
import { redirectPayload } from '../render/payload.js'
import { checkRedirectTarget } from '../shared/redirect-target.js'
import { getLocaleFromPath, toHtmlFile, toPayloadFile, toSiteUrl } from '../shared/url.js'
import type { DiscoveredPath, LinkOrigin } from './crawl.js'
import { fetchPage } from './fetch-page.js'
import { renderRedirectHtml } from './redirect.js'
import type { OutputFile } from './render-files.js'
import type { PageJob, PageOutput } from './render-jobs.js'
import type { RenderService } from './render-pool.js'
import type { BuildState } from './state.js'
import type { FileWriter } from './write.js'

export interface PagePipeline {
  render: RenderService
  site: ResolvedSite
  buildId: string
  api: ApiClient
  /** The API's share of the concurrency: held while a request is in flight, nothing else. */
  apiSlot: LimitFunction
  writer: FileWriter
  state: BuildState
  originOf(path: string): LinkOrigin
  /** Largest `index.html` of a page, in bytes (`build.maxPageBytes`): a larger one fails and stops the crawl. */
  maxPageBytes: number
  /** Starts no further page (a limit was reached). */
  stopCrawl(): void
}

const elapsed = (since: number): number => performance.now() - since
const byteLength = (contents: string | Uint8Array): number =>
  typeof contents === 'string' ? Buffer.byteLength(contents) : contents.byteLength
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Fetches, renders and writes one path; resolves to the paths it links to. Never rejects. */
export async function buildPath(p: PagePipeline, path: string): Promise<DiscoveredPath[]> {
  const answer = await p.apiSlot(async () => {
    const started = performance.now()
    const result = await fetchPage(p.api, path)
    p.state.time('apiWaitMs', elapsed(started))
    return result
  })
  const locale = getLocaleFromPath(path, p.site.i18n)
  switch (answer.type) {
    case 'answer':
      return buildPage(p, { path, locale, answer: answer.answer })
    case 'not-found':
      p.state.notFound.push({ path, status: answer.status })
      return []
    case 'error':
      p.state.fail({ kind: answer.kind, path, status: answer.status, reason: answer.reason })
      return []
  }
}

async function writeFiles(p: PagePipeline, path: string, files: OutputFile[], pageUid?: number): Promise<boolean> {
  const started = performance.now()
  try {
    await Promise.all(files.map((file) => p.writer.write(file.path, file.contents)))
    return true
  } catch (error) {
    p.state.fail({ kind: 'WRITE_FAILED', path, status: 500, reason: `write error: ${message(error)}`, pageUid })
    return false
  } finally {
    p.state.time('writeMs', elapsed(started))
  }
}

async function buildPage(p: PagePipeline, job: PageJob): Promise<DiscoveredPath[]> {
  let output: PageOutput
  try {
    output = await p.render.page(job)
  } catch (error) {
    output = {
      type: 'failed',
      kind: 'RENDER_FAILED',
      status: 500,
      reason: `render error: ${message(error)}`,
      renderMs: 0,
    }
  }
  p.state.time('renderMs', output.renderMs)
  if (output.type === 'redirect')
    return buildRedirect(p, {
      path: job.path,
      locale: job.locale,
      redirectUrl: output.redirectUrl,
      statusCode: output.statusCode,
    })
  if (output.type === 'failed') {
    const { type: _failed, renderMs: _ms, ...failure } = output
    p.state.fail({ ...failure, path: job.path })
    return []
  }
  const html = output.files.find((file) => file.path === toHtmlFile(job.path))
  const htmlBytes = html === undefined ? 0 : byteLength(html.contents)
  if (htmlBytes > p.maxPageBytes) {
    p.stopCrawl()
    p.state.fail({
      kind: 'PAGE_TOO_LARGE',
      path: job.path,
      status: 500,
      reason: `the page's HTML is ${htmlBytes} bytes, over the limit of ${p.maxPageBytes} (build.maxPageBytes, --max-page-bytes): the build stopped here`,
      pageUid: output.pageUid,
    })
    return []
  }
  for (const item of output.skipped) p.state.skip(item)
  p.state.fellBack(job.path, output.fallbacks)
  if (!(await writeFiles(p, job.path, output.files, output.pageUid))) return []
  p.state.addPage(output.fact)
  return output.paths
}

async function buildRedirect(
  p: PagePipeline,
  input: { path: string; locale: string; redirectUrl: string; statusCode: number },
): Promise<DiscoveredPath[]> {
  const { path, locale, statusCode } = input
  const target = checkRedirectTarget(input.redirectUrl, p.site.baseUrl)
  if (target.type === 'refused') {
    p.state.skip({
      kind: 'REDIRECT_REFUSED',
      item: `${path} -> ${input.redirectUrl}`,
      reason: `redirect refused: ${target.reason}`,
      from: path,
    })
    return []
  }
  const canonical = target.type === 'internal' ? toSiteUrl(target.to, p.site.baseUrl) : target.to
  const payload = redirectPayload({ buildId: p.buildId, locale, path, to: target.to, statusCode })
  // No page at the old path unless asked for: Netlify would serve it instead of the `_redirects` rule (issue 14).
  const files = [{ path: toPayloadFile(path), contents: JSON.stringify(payload) }]
  if (p.site.build.redirectPages)
    files.push({ path: toHtmlFile(path), contents: renderRedirectHtml({ to: target.to, canonical, lang: locale }) })
  if (!(await writeFiles(p, path, files))) return []
  p.state.redirects.push({ from: path, to: target.to, statusCode })
  return target.type === 'internal' && target.page ? [{ path: target.path, origin: p.originOf(path), from: path }] : []
}
