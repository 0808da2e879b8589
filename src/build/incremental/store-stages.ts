/**
 * The stages around the build store (`_site/builds/state.jsonl`, store.ts), in the order build.ts
 * runs them after the site files: keep the content-hashed files of earlier builds, then (after
 * the manifests) write the store the next build starts from.
 */
import { BUILD_STORE_FILE, isContentHashedFile } from '../../shared/layout.js'
import { getLocaleFromPath, toHtmlFile, toPayloadFile } from '../../shared/url.js'
import { compareStrings } from '../../shared/values.js'
import type { KeptWhole } from '../crawl/keep-whole.js'
import type { FileWriter } from '../output/write.js'
import type { PageTable } from '../page-table.js'
import type { BuildRun } from '../run.js'
import type { BuildManifest, LocaleData, SlugChange } from '../types.js'
import { planKeptBuilds } from './kept-builds.js'
import type { PreviousOutput } from './previous.js'
import {
  type BuildStore,
  configDigest,
  renderStoreParts,
  STORE_FORMAT,
  type StoredBuild,
  type StoredRedirect,
  type StoreLines,
} from './store.js'

/**
 * Keeps the content-hashed files of the last `build.keepBuilds` builds (see kept-builds.ts) beside this
 * build's, so that tabs opened on them still load their chunks. Resolves to this build's own such files
 * and the earlier builds kept, for the build store.
 */
export function keepEarlierBuilds(
  run: BuildRun,
  writer: FileWriter,
  previous: PreviousOutput | undefined,
): { current: string[]; earlier: StoredBuild[] } {
  const current = [...writer.outputs().keys()].filter(isContentHashedFile).sort()
  const plan = planKeptBuilds({ current, earlier: previous?.store.builds ?? [], keepBuilds: run.site.build.keepBuilds })
  for (const file of plan.keep) writer.keep(file)
  return { current, earlier: plan.earlier }
}

function* pageFilesOf(pages: PageTable): IterableIterator<string> {
  for (const path of pages.paths()) yield* [toHtmlFile(path), toPayloadFile(path)]
}

/**
 * The files of this output that are no page's, when its pages are the previous output's (kept whole, so their
 * files are too): the previous output's other files still here, and those written that are no page file there.
 * Every other file was kept, so is the previous output's (a page's, or one of `previousOther`). A lookup per
 * file of those two lists, not per file of the output (60,000 on a 30,000-page site).
 */
function otherFilesOf(writer: FileWriter, previousOther: ReadonlyMap<string, string>): Map<string, string> {
  const outputs = writer.outputs()
  const files = new Map<string, string>()
  for (const path of previousOther.keys()) {
    const hash = outputs.get(path)
    if (hash !== undefined) files.set(path, hash)
  }
  for (const path of writer.written())
    if (previousOther.has(path) || writer.previousHash(path) === undefined) files.set(path, outputs.get(path)!)
  return files
}

/**
 * The build store (`_site/builds/state.jsonl`, see store.ts), written after everything else: every
 * page with its uid and links, the redirects, and the hash of every file the output holds. Resolves
 * to the store as written, its page lines (what a long-lived builder keeps of it, see OutputMemory in previous.ts)
 * and its pages' paths, sorted.
 */
export async function writeStore(
  run: BuildRun,
  writer: FileWriter,
  input: {
    engine: string
    manifest: BuildManifest
    locales: Map<string, LocaleData>
    builds: { current: string[]; earlier: StoredBuild[] }
    /** Slug history redirects among the build's redirects. */
    slugs: readonly SlugChange[]
    /** The page lines of a long-lived builder's last store, of which unchanged parts are taken (see renderStoreParts). */
    lastLines?: StoreLines
    /** Resolve to this store's page lines too (a long-lived builder's next build takes them). */
    keepLines: boolean
    /**
     * The pages were kept whole (keep-whole.ts): the previous output's page files are this output's, and only
     * the rebuilt pages' rows lack their files' hashes (the kept rows have them as the last store did).
     */
    keptWhole?: Pick<KeptWhole, 'otherFiles' | 'rebuilt' | 'from'>
  },
): Promise<{ store: BuildStore; lines: StoreLines | undefined; sortedPages: readonly string[] }> {
  const { state, site } = run
  const slugs = new Map(input.slugs.map((slug) => [slug.from, slug]))
  const redirects: StoredRedirect[] = state.redirects.map((r) => {
    const slug = slugs.get(r.from)
    return slug
      ? { ...r, locale: slug.locale, kind: 'slug', uid: slug.uid }
      : { ...r, locale: getLocaleFromPath(r.from, site.i18n), kind: 'api' }
  })
  // a page's two files go with the page; `files` keeps the others
  const outputs = writer.outputs()
  const { pages } = state
  const { keptWhole } = input
  for (const path of keptWhole?.rebuilt ?? pages.paths())
    pages.setFiles(path, [outputs.get(toHtmlFile(path)) ?? '', outputs.get(toPayloadFile(path)) ?? ''])
  const files = keptWhole ? otherFilesOf(writer, keptWhole.otherFiles) : new Map(outputs)
  if (!keptWhole) for (const file of pageFilesOf(pages)) files.delete(file)
  files.delete(BUILD_STORE_FILE)
  const store: BuildStore = {
    format: STORE_FORMAT,
    engine: input.engine,
    config: configDigest(site),
    id: input.manifest.id,
    clientVersion: input.manifest.clientVersion,
    locales: Object.fromEntries(
      [...input.locales].map(([locale, data]) => [locale, { initialDataUrl: data.initialDataUrl }]),
    ),
    pages,
    // in the order the store writes them, as the next build would read them back
    redirects: redirects.sort((a, b) => compareStrings(a.from, b.from)),
    notFound: [...state.notFound].sort((a, b) => compareStrings(a.path, b.path)),
    builds: [
      { id: input.manifest.id, clientVersion: input.manifest.clientVersion, files: input.builds.current },
      ...input.builds.earlier,
    ],
    files,
  }
  // in parts: the store of a large site is tens of megabytes, never one string
  let lines: StoreLines | undefined
  let sortedPages: readonly string[] = []
  const done = (rendered: StoreLines) => {
    lines = rendered
  }
  const parts = renderStoreParts(store, {
    last: input.lastLines,
    listed: (pages) => {
      sortedPages = pages
    },
    ...(input.keepLines ? { done } : {}),
    ...(keptWhole ? { kept: { from: keptWhole.from, rebuilt: keptWhole.rebuilt } } : {}),
  })
  await writer.writeParts(BUILD_STORE_FILE, parts)
  return { store, lines, sortedPages }
}
