/**
 * The stages of `build()`, in the order build.ts runs them. Each takes the run
 * and what earlier stages produced, and returns data; only build.ts decides order.
 */

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isLoopbackHost, toBareHostname } from '../config/resolve.js'
import type { ResolvedSite } from '../config/types.js'
import { buildIssues, describeSource } from '../errors.js'
import { bundleClient, type ClientBundle } from '../hydration/bundle.js'
import { missingTextsNotes } from '../hydration/manifest.js'
import type { ShownIn } from '../media/apply.js'
import { findFileUrlsIn } from '../media/scan.js'
import type { MediaService } from '../media/service.js'
import { listPublicFiles } from '../project/public-files.js'
import { prepareInitialData } from '../render/prepare.js'
import { loadRenderer } from '../render/renderer.js'
import { toPublicSiteInfo } from '../render/site-info.js'
import { REDIRECTS_FILE, ROBOTS_FILE, SITEMAP_FILE } from '../shared/layout.js'
import { settleInOrder } from '../shared/settle.js'
import { localeHome, pathSegments, withLocale } from '../shared/url.js'
import { createCrawler, type FoundLinks } from './crawl/crawl.js'
import { discoverFromInitialData } from './crawl/discover.js'
import { fetchInitialData, languageNotes, prepareLocaleData } from './crawl/initial-data.js'
import { type KeptWhole, keepWhole } from './crawl/keep-whole.js'
import { fetchNotFoundBody } from './crawl/not-found.js'
import { buildPath, buildRedirect, type PagePipeline } from './crawl/pages.js'
import { checkCloudflareLimits, checkRedirectLoops, renderRedirectsFile } from './crawl/redirect.js'
import type { PreviousOutput, SlugHistory } from './incremental/previous.js'
import type { ReusePlan } from './incremental/reuse.js'
import { planSlugRedirects, SLUG_REDIRECT_STATUS } from './incremental/slug-history.js'
import type { StoredRedirect } from './incremental/store.js'
import { buildIdOf, clientVersionOf, createManifest, type IdLines, renderManifestFiles } from './output/manifest.js'
import { planSitemaps, renderRobots, sitemapFilesOf } from './output/sitemap.js'
import type { FileWriter } from './output/write.js'
import { toSkippedItem } from './render-threads/render-jobs.js'
import { createInlineRenderService, createRenderPool, type RenderService } from './render-threads/render-pool.js'
import type { BuildRun } from './run.js'
import type { BuildState } from './state.js'
import type { BuildManifest, BuildOptions, LocaleData, SlugChange } from './types.js'

/** Everything fetched, bundled or listed before the first page. */
export interface BuildInputs {
  initialData: Map<string, unknown>
  /** Waited for by the 404 pages only: the crawl does not wait for these requests (they never reject: a failure is a note). */
  notFound: Promise<Map<string, { raw?: unknown; note?: string }>>
  client: ClientBundle
  /** The version of the client code (clientVersionOf the bundle): what pages and payloads carry instead of a build id. */
  clientVersion: string
  publicFiles: string[]
}

const publicDir = (run: BuildRun): string => join(run.config.root, 'public')

/** Render workers loading the templates (or the renderer handed in, in the build's thread). */
export function createRenderService(run: BuildRun, options: Pick<BuildOptions, 'renderer'>): RenderService {
  if (options.renderer) return createInlineRenderService(options.renderer)
  if (run.renderThreads === 0) return createInlineRenderService(loadRenderer(run.config.root))
  return createRenderPool({
    root: run.config.root,
    threads: run.renderThreads,
    timeoutMs: run.site.build.renderTimeoutMs,
  })
}

/**
 * What the site's `baseUrl` makes of its absolute URLs, when a reader would not expect it: none at all, or this
 * machine (a project made with the demo's config, then pointed at a real CMS with `--api`).
 */
export function baseUrlNotes(site: Pick<ResolvedSite, 'baseUrl' | 'api'>): string[] {
  if (!site.baseUrl)
    return [
      "baseUrl is not set: no sitemap.xml (its URLs must be absolute) and no Sitemap line in robots.txt (set baseUrl to the site's public origin)",
    ]
  // the hosts alone: the API's URL may hold a user and password
  const apiHost = toBareHostname(new URL(site.api.baseUrl).host)
  if (!isLoopbackHost(toBareHostname(new URL(site.baseUrl).host)) || isLoopbackHost(apiHost)) return []
  return [
    `baseUrl ${site.baseUrl} is this machine, while the API is ${apiHost}: canonical links, hreflang alternates, og:url, sitemap.xml and robots.txt point there (set baseUrl to the site's public origin)`,
  ]
}

/** Initial data and 404 bodies of every locale (through the API slots), templates, client bundle, public/ listing: all at once. */
export async function loadInputs(
  run: BuildRun,
  render: RenderService,
  options: Pick<BuildOptions, 'bundleClient'>,
): Promise<BuildInputs> {
  const { site, config, api } = run
  const locales = site.i18n.locales
  const perLocale = <T>(fetch: (locale: string) => Promise<T>) =>
    Promise.all(locales.map((locale) => run.apiSlot(fetch, locale))).then(
      (values) => new Map(locales.map((l, i) => [l, values[i]!])),
    )
  // The templates are the user's input: when they do not compile, that is the error (TEMPLATES_INVALID,
  // exit 2), whichever finished first: both bundles settle, the first failure in this order wins, and an
  // API error is only thrown once the templates compiled.
  const compiled = settleInOrder([
    options.bundleClient ? options.bundleClient() : bundleClient({ root: config.root, minify: true }),
    render.ready,
  ])
  const fetched = Promise.all([
    perLocale((locale) => fetchInitialData(api, locale, run.signal)),
    listPublicFiles(publicDir(run)),
  ]).catch(async (error: unknown) => {
    await compiled
    throw error
  })
  // asked after the initial data, so that those requests go first
  const notFound = perLocale((locale) => fetchNotFoundBody(api, locale, site.i18n, run.signal))
  notFound.catch(() => {}) // a build that stops before its 404 pages leaves them unread
  const [[client], [initialData, listed]] = await Promise.all([compiled, fetched])
  // the build writes its own sitemap.xml (a public one would be copied only to be replaced), but none without baseUrl
  const skipped = [...listed.skipped]
  const ownSitemap = site.baseUrl !== undefined && listed.files.includes(SITEMAP_FILE)
  if (ownSitemap) skipped.push({ path: SITEMAP_FILE, reason: `the build writes its own ${SITEMAP_FILE}` })
  const publicFiles = ownSitemap ? listed.files.filter((path) => path !== SITEMAP_FILE) : listed.files
  for (const { path, reason } of skipped)
    run.state.skip({ ...buildIssues.publicFileSkipped(reason), item: `public/${path}` })
  run.state.notes.push(...(client.hints ?? []), ...missingTextsNotes(client.texts, run.site.i18n))
  return { initialData, notFound, client, clientVersion: clientVersionOf(client.files), publicFiles }
}

/** The client bundle under `_site/`, before the first page. */
export async function writeClientFiles(writer: FileWriter, inputs: BuildInputs): Promise<void> {
  await Promise.all(inputs.client.files.map((file) => writer.write(file.path, file.contents)))
}

/**
 * `public/` as it is, once the pages and 404 pages are written (its robots.txt and _redirects are merged by
 * writeSiteFiles). A file where the build wrote one, or where it needs a folder (`public/services` beside the
 * pages under /services), is left out and said so: copied first, it failed those pages' writes, or replaced
 * their folder in a previous output.
 */
export async function writePublicFiles(run: BuildRun, writer: FileWriter, inputs: BuildInputs): Promise<void> {
  const outputs = writer.outputs()
  const listed = new Set(inputs.publicFiles)
  const folders = new Set<string>()
  for (const path of outputs.keys())
    for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1))
      if (listed.has(path.slice(0, at))) folders.add(path.slice(0, at))
  const skippedBecause = (file: string): string | undefined => {
    if (folders.has(file)) return `the build writes files under ${file}/`
    // a file name as it is on disk, not a URL path: not decoded
    const segments = file.split('/')
    const own = segments.map((_, i) => segments.slice(0, i + 1).join('/')).find((path) => outputs.has(path))
    return own === undefined ? undefined : `the build writes its own ${own}`
  }
  const copies: Promise<number>[] = []
  for (const file of inputs.publicFiles) {
    if (file === ROBOTS_FILE || file === REDIRECTS_FILE) continue
    const reason = skippedBecause(file)
    if (reason) run.state.skip({ ...buildIssues.publicFileSkipped(reason), item: `public/${file}` })
    else copies.push(writer.copy(join(publicDir(run), file), file))
  }
  await Promise.all(copies)
}

/**
 * Prepares each locale's initial data and writes it once, content-hashed. With `media`, the files it names are
 * taken first (a file that cannot be taken fails the build, as on a page).
 */
export async function writeInitialData(
  run: BuildRun,
  writer: FileWriter,
  input: { inputs: BuildInputs; options: Pick<BuildOptions, 'renderer'>; media?: MediaService },
): Promise<Map<string, LocaleData>> {
  const prepare = input.options.renderer?.prepareInitialData ?? prepareInitialData
  const locales = new Map<string, LocaleData>()
  for (const [locale, raw] of input.inputs.initialData) {
    const from = `initial data (${locale})`
    const files = input.media && (await input.media.resolve(findFileUrlsIn(raw), from))
    const shownIn: ShownIn = new Map()
    const { data, file, problems, media } = prepareLocaleData(prepare, locale, raw, files, shownIn)
    for (const problem of problems) run.state.skip(toSkippedItem(from, problem))
    if (media) run.state.fail({ ...media, path: from, status: 502, from })
    else input.media?.rendered(from, { from }, shownIn)
    await writer.write(file.path, file.contents)
    locales.set(locale, data)
  }
  run.state.notes.push(...languageNotes(run.site.i18n, locales.values()))
  return locales
}

/** Hands the renderers what every page shares: public site info, client version and assets, initial data. */
export function startRenderers(
  run: BuildRun,
  render: RenderService,
  input: { inputs: BuildInputs; locales: Map<string, LocaleData> },
): Promise<void> {
  return render.start({
    site: toPublicSiteInfo(run.site),
    clientVersion: input.inputs.clientVersion,
    assets: input.inputs.client.assets,
    locales: input.locales,
  })
}

/**
 * Discovers and builds every page: seeded with each locale's home and the
 * links of its initial data, fed by the links of every page built. An `--only` build of a long-lived
 * builder keeps the previous pages whole when the pages it asks again link as before (keep-whole.ts).
 */
export async function crawlPages(
  run: BuildRun,
  input: {
    render: RenderService
    writer: FileWriter
    locales: Map<string, LocaleData>
    clientVersion: string
    /** A partial build's plan (`--only`); without it every page is fetched. */
    reuse?: ReusePlan
    /** The previous output the plan keeps pages of. */
    previous?: PreviousOutput
    /** Takes the CMS's files into the output; without it they stay links. */
    media?: MediaService
  },
): Promise<{ pipeline: PagePipeline; keptWhole?: KeptWhole }> {
  const { site, state } = run
  const { maxPages, maxPageBytes } = site.build
  const visited = (found: FoundLinks | undefined): FoundLinks | undefined => {
    // a full build renders every page its crawl finds (an --only build what it names and their dependents)
    if (!input.reuse) input.render.expect?.(crawler.known)
    run.progress({ type: 'page', done: crawler.visited + 1, total: crawler.known, failures: state.failures.length })
    return found
  }
  const crawler = createCrawler({
    maxInFlight: run.maxPagesInFlight,
    maxPaths: maxPages,
    onLimit: ({ path, origin: _origin, ...source }) =>
      state.fail({ ...buildIssues.maxPages(maxPages), path, ...source }),
    signal: run.signal,
    pool: run.pool,
    visit: (path) => {
      const found = buildPath(pipeline, path)
      return found instanceof Promise ? found.then(visited) : visited(found)
    },
  })
  let originOf = (path: string) => crawler.originOf(path)
  const pipeline: PagePipeline = {
    render: input.render,
    writer: input.writer,
    site,
    api: run.api,
    apiSlot: run.apiSlot,
    prefetched: run.prefetched,
    state,
    clientVersion: input.clientVersion,
    originOf: (path) => originOf(path)?.origin ?? 'nav',
    sourceOf: (path) => {
      const found = originOf(path)
      if (!found) return {}
      const { origin: _origin, path: _path, ...source } = found
      return source
    },
    maxPageBytes,
    stopCrawl: () => crawler.stop(),
    signal: run.signal,
    reuse: input.reuse,
    outDir: run.outDir,
    intern: (path) => run.pool.intern(path),
    apiOrigin: new URL(site.api.baseUrl).origin,
    media: input.media,
  }
  const options = { baseUrl: site.baseUrl, locales: site.i18n.locales }
  const seeds: FoundLinks[] = []
  for (const [locale, data] of input.locales) {
    const found = discoverFromInitialData(data.initialData, localeHome(locale, site.i18n), locale, options)
    for (const refused of found.refused) state.skip(refused)
    seeds.push(found.found)
    run.progress({ type: 'locale', locale, links: found.found.nav.length })
  }
  const { reuse, previous } = input
  const keptWhole =
    reuse && previous
      ? await keepWhole(pipeline, { plan: reuse, previous, writer: input.writer, maxInFlight: run.maxPagesInFlight })
      : undefined
  if (keptWhole) {
    originOf = keptWhole.originOf
    run.progress({ type: 'page', done: state.pages.size, total: state.pages.size, failures: state.failures.length })
  } else {
    for (const found of seeds) crawler.add(found)
    await crawler.run()
  }
  run.checkInterrupted()
  for (const { path, status } of state.notFound) {
    const { origin, path: _path, ...source } = originOf(path) ?? { origin: 'nav', from: 'unknown' }
    if (origin === 'nav') state.fail({ ...buildIssues.brokenNavLink(status, source.from), path, ...source })
    else state.skip({ ...buildIssues.brokenContentLink(status), item: path, ...source })
  }
  return keptWhole ? { pipeline, keptWhole } : { pipeline }
}

/**
 * Slug history (slug-history.ts): a 301 from each earlier path of a page that moved, through the
 * same redirect pages, payloads and `_redirects` lines as the API's redirects. Needs a previous output,
 * or the history of the last complete build over OUT when a commit after it was cut (`history`, see loadPrevious).
 */
export async function writeSlugRedirects(
  run: BuildRun,
  input: {
    pipeline: PagePipeline
    writer: FileWriter
    previous: PreviousOutput | undefined
    history?: SlugHistory
    keptWhole?: KeptWhole
  },
): Promise<{ redirects: SlugChange[]; changes: SlugChange[] }> {
  const { previous, pipeline } = input
  const history = previous ? { pages: previous.pages.identities(), redirects: previous.store.redirects } : input.history
  if (!history) return { redirects: [], changes: [] }
  // pages kept whole are the previous pages at the same paths, and the API redirects are as they were: the
  // slug history is the previous build's, unchanged
  const plan = input.keptWhole
    ? { redirects: history.redirects.flatMap(slugChangeOf), changes: [] }
    : planSlugRedirects({
        previousPages: history.pages,
        previousRedirects: history.redirects,
        pages: run.state.pages.identities(),
        apiRedirects: run.state.redirects.map((r) => r.from),
      })
  const outputs = input.writer.outputs()
  const redirects: SlugChange[] = []
  for (const redirect of plan.redirects) {
    const { from, to, locale } = redirect
    // a stored old path that is (or lies under) a file this build wrote, a public one say, is dropped
    if (pathSegments(from).some((_, i, all) => outputs.has(all.slice(0, i + 1).join('/')))) continue
    await buildRedirect(pipeline, { path: from, locale, redirectUrl: to, statusCode: SLUG_REDIRECT_STATUS })
    redirects.push(redirect)
  }
  noteLinksToOldPaths(run.state, redirects)
  return { redirects, changes: plan.changes.filter((change) => redirects.includes(change)) }
}

/**
 * A link in content to the old path of a page that moved is no broken link: its 301 takes visitors to the page.
 * It is a note instead of a BROKEN_CONTENT_LINK item, so that an editor can still update the link.
 */
function noteLinksToOldPaths(state: BuildState, redirects: readonly SlugChange[]): void {
  const moved = new Map(redirects.map((r) => [r.from, r.to]))
  if (moved.size === 0) return
  let kept = 0
  for (const item of state.skipped) {
    const to = item.kind === 'BROKEN_CONTENT_LINK' ? moved.get(item.item) : undefined
    if (to === undefined) state.skipped[kept++] = item
    else {
      state.notes.push(
        `${item.item}: a link in content names the old path of a page that moved, which answers ${SLUG_REDIRECT_STATUS} to ${to} (update the link)${describeSource(item)}`,
      )
    }
  }
  state.skipped.length = kept
}

/** A stored slug history redirect as the slug change it came from. */
const slugChangeOf = ({ kind, from, to, locale, uid }: StoredRedirect): SlugChange[] =>
  kind === 'slug' && uid !== undefined ? [{ from, to, locale, uid }] : []

/** `404.html` of every locale. */
export async function writeNotFoundPages(
  run: BuildRun,
  writer: FileWriter,
  input: { render: RenderService; inputs: BuildInputs; media?: MediaService },
): Promise<void> {
  const bodies = await input.inputs.notFound
  for (const locale of run.site.i18n.locales) {
    const { raw, note } = bodies.get(locale) ?? {}
    if (note) run.state.notes.push(note)
    const from = withLocale('/404', locale, run.site.i18n)
    // the files its body names, as a page's (media 'copy' or 'optimize')
    const media = raw === undefined ? undefined : await input.media?.resolve(findFileUrlsIn(raw), from)
    const { file, skipped, failed, pageUid, shownIn } = await input.render.notFound({ locale, raw, media })
    for (const item of skipped) run.state.skip(item)
    if (failed) run.state.fail({ ...failed, path: from, status: 502, from })
    else if (shownIn) input.media?.rendered(from, { from, ...(pageUid === undefined ? {} : { pageUid }) }, shownIn)
    await writer.write(file.path, file.contents)
  }
}

/**
 * `_redirects`, `sitemap.xml` and `robots.txt` (the project's own `public/_redirects` and `public/robots.txt`
 * merged into them). `previous` is the previous output when the same engine
 * and config built it: when every page's sitemap facts are as it had them, its sitemap files are kept
 * as they are (an `--only` build's end phase is then not O(site) for them).
 */
export async function writeSiteFiles(
  run: BuildRun,
  writer: FileWriter,
  input: {
    inputs: BuildInputs
    previous: PreviousOutput | undefined
    /** The pages built again when the others were kept whole (keep-whole.ts): only theirs can have changed. */
    rebuilt?: ReadonlySet<string>
  },
): Promise<void> {
  const { state, site } = run
  const { inputs, previous } = input
  // a byte order mark some editors save would land mid-file after the build's own lines
  const own = async (file: string) =>
    inputs.publicFiles.includes(file)
      ? (await readFile(join(publicDir(run), file), 'utf8')).replace(/^\uFEFF/, '')
      : undefined
  const ownRedirects = await own(REDIRECTS_FILE)
  if (state.redirects.length || ownRedirects !== undefined) {
    const redirects = renderRedirectsFile(state.redirects, ownRedirects)
    await writer.write(REDIRECTS_FILE, redirects)
    state.notes.push(...checkCloudflareLimits(redirects), ...checkRedirectLoops(state.redirects))
  }
  state.notes.push(...baseUrlNotes(site))
  const kept =
    previous && state.pages.sameFacts(previous.pages, input.rebuilt)
      ? sitemapFilesOf(previous.recordedHashOf)
      : undefined
  // kept only whole, and only as written: a part changed on disk means every part is written again; a
  // `sitemap-1.xml` of public/ (written above) is not taken for a part of the previous sitemap
  const keepable = (path: string) => !writer.outputs().has(path) && previous?.hashOf(path) !== undefined
  let hasSitemap = true
  if (kept?.every(keepable)) for (const path of kept) writer.keep(path)
  else {
    const files = planSitemaps(state.pages.facts(), site.baseUrl)
    for (const file of files) await writer.writeParts(file.path, file.parts())
    hasSitemap = files.length > 0
  }
  await writer.write(ROBOTS_FILE, renderRobots(site.baseUrl, await own(ROBOTS_FILE), hasSitemap))
}

/**
 * `_site/builds/latest.json` and `_site/builds/meta/<id>.json`; last, as the id is a digest of every other file.
 * `idLines` are the last build's lines of its id (a long-lived builder's), and `keepIdLines` asks for this one's.
 * `lastPrerendered` is the last build's `prerendered`, when this build's pages and redirects are its (kept whole).
 */
export async function writeManifests(
  run: BuildRun,
  writer: FileWriter,
  input: { inputs: BuildInputs; idLines?: IdLines; keepIdLines: boolean; lastPrerendered?: readonly string[] },
): Promise<{ manifest: BuildManifest; idLines: IdLines | undefined }> {
  const { lastPrerendered } = input
  const prerendered = lastPrerendered ?? [...run.state.pages.paths(), ...run.state.redirects.map((r) => r.from)]
  let idLines: IdLines | undefined
  const id = buildIdOf(writer.outputs(), {
    last: input.idLines,
    // the files a build that kept the last output whole touched: all others are the last output's, as is its id's lines
    touched: writer.touched(),
    ...(input.keepIdLines ? { done: (lines: IdLines) => (idLines = lines) } : {}),
  })
  const { clientVersion } = input.inputs
  const manifest = createManifest({
    ...{ id, clientVersion, prerendered, sorted: lastPrerendered !== undefined },
    site: run.site.hostnames[0],
  })
  for (const file of renderManifestFiles(manifest)) await writer.write(file.path, file.contents)
  return { manifest, idLines }
}
