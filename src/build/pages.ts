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
import { getLocaleFromPath, toHtmlFile, toPayloadFile } from '../shared/url.js'
import type { DiscoveredPath, LinkOrigin } from './crawl.js'
import { fetchPage } from './fetch-page.js'
import { renderRedirectHtml } from './redirect.js'
import type { OutputFile } from './render-files.js'
import type { PageJob, PageOutput } from './render-jobs.js'
import type { RenderService } from './render-pool.js'
import { toSiteUrl } from './sitemap.js'
import type { BuildState } from './state.js'
import type { PageRecord } from './types.js'
import type { FileWriter } from './write.js'

export interface PagePipeline {
  render: RenderService
  site: ResolvedSite
  clientVersion: string
  api: ApiClient
  /** The API's share of the concurrency: held while a request is in flight, nothing else. */
  apiSlot: LimitFunction
  writer: FileWriter
  state: BuildState
  originOf(path: string): LinkOrigin
  /** Aborts requests in flight when the build is interrupted. */
  signal?: AbortSignal
}

const elapsed = (since: number): number => performance.now() - since

/** The paths a page links to, each once, by where they were found. */
export function toLinks(paths: readonly DiscoveredPath[]): PageRecord['links'] {
  const nav = new Set<string>()
  const content = new Set<string>()
  for (const { path, origin } of paths) (origin === 'nav' ? nav : content).add(path)
  return { nav: [...nav], content: [...content] }
}
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Fetches, renders and writes one path; resolves to the paths it links to. Never rejects. */
export async function buildPath(p: PagePipeline, path: string): Promise<DiscoveredPath[]> {
  const answer = await p.apiSlot(async () => {
    const started = performance.now()
    const result = await fetchPage(p.api, path, p.signal)
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
      p.state.fail({ path, status: answer.status, reason: answer.reason })
      return []
  }
}

async function writeFiles(p: PagePipeline, path: string, files: OutputFile[]): Promise<boolean> {
  const started = performance.now()
  try {
    await Promise.all(files.map((file) => p.writer.write(file.path, file.contents)))
    return true
  } catch (error) {
    p.state.fail({ path, status: 500, reason: `write error: ${message(error)}` })
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
    output = { type: 'failed', status: 500, reason: `render error: ${message(error)}`, renderMs: 0 }
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
    p.state.fail({ path: job.path, status: output.status, reason: output.reason })
    return []
  }
  for (const item of output.skipped) p.state.skip(item)
  if (!(await writeFiles(p, job.path, output.files))) return []
  p.state.addPage({ ...output.fact, uid: output.uid, links: toLinks(output.paths) })
  return output.paths
}

async function buildRedirect(
  p: PagePipeline,
  input: { path: string; locale: string; redirectUrl: string; statusCode: number },
): Promise<DiscoveredPath[]> {
  const { path, locale, statusCode } = input
  const target = checkRedirectTarget(input.redirectUrl, p.site.baseUrl)
  if (target.type === 'refused') {
    p.state.skip({ item: `${path} -> ${input.redirectUrl}`, reason: `redirect refused: ${target.reason}`, from: path })
    return []
  }
  const canonical = target.type === 'internal' ? toSiteUrl(target.to, p.site.baseUrl) : target.to
  const payload = redirectPayload({ clientVersion: p.clientVersion, locale, path, to: target.to, statusCode })
  const files = [
    { path: toHtmlFile(path), contents: renderRedirectHtml({ to: target.to, canonical, lang: locale }) },
    { path: toPayloadFile(path), contents: JSON.stringify(payload) },
  ]
  if (!(await writeFiles(p, path, files))) return []
  p.state.redirects.push({ from: path, to: target.to, statusCode })
  return target.type === 'internal' && target.page ? [{ path: target.path, origin: p.originOf(path), from: path }] : []
}
