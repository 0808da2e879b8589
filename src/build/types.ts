/**
 * The shapes `build()` takes and returns. A build keeps only small facts per
 * page (path, locale, noIndex, alternates); page data is dropped once written.
 */

import type { Dispatcher } from 'undici'
import type { ResolvedConfig, ResolvedSite } from '../config/types.js'
import type { BuildIssueKind } from '../errors.js'
import type { ClientBundle } from '../hydration/bundle.js'
import type { MediaStats } from '../media/types.js'
import type { MissingTemplate } from '../render/missing-templates.js'
import type { PageRenderer } from '../render/renderer.js'
import type { InitialData } from '../shared/types.js'

export interface BuildLogger {
  info(line: string): void
  warn(line: string): void
}

/** What `onProgress` hears: a locale's initial data is in, or one more path is done. */
export type BuildProgress =
  | { type: 'locale'; locale: string; links: number }
  | { type: 'page'; done: number; total: number; failures: number }

/**
 * A build: the resolved site (its output folder and concurrency are `site.build`, flags
 * included: resolveConfig fills them once) plus the I/O and tools of this run.
 */
export interface BuildOptions {
  config: ResolvedConfig
  site: ResolvedSite
  /** undici dispatcher for the API client (tests, keep-alive pools). */
  dispatcher?: Dispatcher
  logger?: BuildLogger
  /** Clock for the wall time (nothing in the output comes from it). @default Date.now */
  now?: () => number
  onProgress?: (progress: BuildProgress) => void
  /** A render core to use in the build's thread (tests hand in stubs); by default render workers load `templates/` under `config.root`. */
  renderer?: PageRenderer
  /** Render worker threads; 0 renders in the build's thread. @default one per CPU but one, 1 to RENDER_THREADS_MAX (threads.ts) */
  renderThreads?: number
  /** The browser client; bundled from `src/client` by default. */
  bundleClient?: () => Promise<ClientBundle>
  /** Replace an output folder that holds something else than a previous `site` output (`--force`). @default false */
  force?: boolean
  /**
   * A partial build (`--only`): page uids (`'12'`) and page paths (`'/pl/o-nas'`) that changed. Those pages
   * are fetched again in every locale, with the pages whose previous answer linked to them; every other page
   * is kept, or rendered again from the data the previous output kept when its locale's initial data or the
   * templates changed. The output equals a full build's. Without a usable previous output, every page is fetched.
   * An empty list names no page: only what changed besides the pages is built (every page when the output is
   * another engine's or config's; the pages rendered again when the templates or a locale's initial data changed).
   */
  only?: string[]
  /**
   * Stops the build (the CLI aborts it on SIGINT and SIGTERM, with the signal's name as the reason):
   * no new request starts, requests in flight are aborted, the temporary folder is removed and
   * `build()` rejects with BUILD_INTERRUPTED, OUT left as it was.
   */
  signal?: AbortSignal
}

/** Where in the CMS a failure or skipped item comes from: the records an editor opens to fix it. */
export interface CmsSource {
  /** The page whose data held it (its path, or `initial data (<locale>)`); for a broken link, the page linking. */
  from?: string
  /** Uid of that CMS page, when known. */
  pageUid?: number
  /** Uid of the content element inside it, when known. */
  elementUid?: number
}

/** A path that could not be built: the build fails and OUT stays as it was. */
export interface BuildFailure extends CmsSource {
  /** What went wrong, as a stable code (docs/ci.md). */
  kind: BuildIssueKind
  path: string
  /** HTTP status of the API answer, or 500 for the build's own errors (render, write, limits). */
  status: number
  reason: string
}

/** Something refused or left out on purpose (hostile path, unsafe redirect, data problem): listed, not fatal. */
export interface SkippedItem extends CmsSource {
  /** What was left out and why, as a stable code (docs/ci.md). */
  kind: BuildIssueKind
  item: string
  reason: string
  /** The status of the API answer, for a broken link. */
  status?: number
  /** A content element whose template threw: where (`templates/content/Text.tsx:12:11`), also named in `reason`. */
  template?: string
}

export interface BuildRedirect {
  from: string
  to: string
  statusCode: number
}

export interface BuildManifest {
  /** Derived from what the build output (see buildIdOf), never from the clock. */
  id: string
  /** The version of the client code its pages were rendered for (see clientVersionOf). */
  clientVersion: string
  /** Every path that has a `_payload.json` (pages and redirects), sorted. */
  prerendered: string[]
  /** The site's first host name, when the config names sites: a build of another site refuses the folder. */
  site?: string
}

export interface BuildTimings {
  /** Sum over requests of the time spent waiting on the API (requests overlap, so this may exceed the wall time). */
  apiWaitMs: number
  /** Sum of prepare + render + document + payload serialisation. */
  renderMs: number
  /** Sum of the time page writes took to finish. */
  writeMs: number
}

export interface BuildResult {
  /** The id of the output (manifest.id): the same for two builds of the same content. */
  buildId: string
  /** Absolute output folder. Only replaced when `failures` is empty. */
  outDir: string
  pages: { total: number; byLocale: Record<string, number>; paths: string[] }
  redirects: BuildRedirect[]
  failures: BuildFailure[]
  skipped: SkippedItem[]
  /** Remarks on the output as a whole (e.g. sitemap without `baseUrl`, a content element type without a template). */
  notes: string[]
  /** Backend layouts and content element types the API sent that have no template: `Default` rendered them. */
  missingTemplates: MissingTemplate[]
  bytesWritten: number
  filesWritten: number
  /** Files of the previous output left as they were (same bytes, same modification time). */
  filesKept: number
  /**
   * Pages added, changed, removed and unchanged since the previous output (all added without one), and the
   * pages whose path changed (slug changes: their old path now redirects with 301; not counted as removed and added).
   */
  changes: { pages: PageChanges; slugs: SlugChange[] }
  /** What `--only` did, when it was given. */
  only?: OnlyReport
  durationMs: number
  timings: BuildTimings
  manifest: BuildManifest
  /** What the build did with the CMS's files (media 'copy' or 'optimize'). */
  media?: MediaStats
  /**
   * Pages whose API answer said when it may change (a scheduled record: `Cache-Control: max-age` or `Expires`),
   * with that time (ms since the epoch). `complete`: every page was asked of the API (not an `--only` build),
   * so a page not listed has no such time.
   */
  recheck: { complete: boolean; pages: Array<{ path: string; at: number }> }
}

/** What the sitemap needs of a page; everything else is dropped once the page is written. */
export interface PageFact {
  path: string
  locale: string
  noIndex: boolean
  /** Available translations: hreflang and normalised path (`x-default` for the default language). */
  alternates: Array<{ hreflang: string; path: string }>
  /** The page's canonical when it names another page: the page is then left out of the sitemap. */
  canonical?: string
}

/** Pages of the output compared with the previous output's, by path. */
export interface PageChanges {
  added: string[]
  /** Pages one of whose files (HTML, payload) was written anew: their bytes changed. */
  changed: string[]
  removed: string[]
  unchanged: number
}

/**
 * A page as the build keeps it after its files are written, and as the build store records it for
 * the next build: its sitemap facts, its uid and the page paths its API answer links to.
 */
export interface PageRecord extends PageFact {
  /** The page's uid (`id` of its API answer): the same page in every locale; `--only` and slug history follow it. */
  uid?: number
  /** Page paths its API answer links to, by where they were found (see discoverFromPage). */
  links: { nav: string[]; content: string[] }
  /** The CMS files its answer names, as the state names them (see shared/file-refs.ts): file events find it by them. */
  fileRefs?: string[]
  /** What other pages can show of it (api/link-digest.ts): `--only` asks its linking pages again only when it changes. */
  linkDigest?: string
}

/** Initial data of one locale, prepared and written once. */
export interface LocaleData {
  locale: string
  initialData: InitialData
  /** URL of its content-hashed file: `/_site/data/initial-pl-1a2b3c4d5e.json`. */
  initialDataUrl: string
}

/** What the build result says of `--only`. */
export interface OnlyReport {
  /** The items as given. */
  requested: string[]
  /** Why every page was fetched instead (no usable previous output…); absent for a partial build. */
  fallback?: string
  /** Uids no page of the previous build has (reported, not fatal). */
  unknownUids: number[]
  /** `file:` items no page of the previous build shows (reported, not fatal). */
  unknownFiles: string[]
  /** Page paths neither the previous build nor the API has a page at (a typo; reported, not fatal). */
  unknownPaths: string[]
  /** Pages asked of the API again: the ones named, in every locale, and the ones linking to them. */
  refetched: string[]
  /** Locales whose pages were rendered again from kept data (their initial data or the client code changed). */
  rerenderedLocales: string[]
  /**
   * Whether the pages were crawled (each kept page visited); false when a long-lived builder kept the previous
   * pages whole, as the pages asked again link as before. Absent when every page was fetched.
   */
  crawled?: boolean
}

/** A page whose path changed since the previous build: its old path now redirects to the new one with 301. */
export interface SlugChange {
  from: string
  to: string
  locale: string
  uid: number
}
