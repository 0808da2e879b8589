/**
 * The engine's own files, URLs and document ids: where a build writes what is not a page, what preview
 * serves under `/_site/`, what the browser polls, and the project's cache folder. Paths
 * without a leading slash are relative to the output folder (or the project root for the
 * cache); URLs are root-relative. Build, preview, serve and the browser import this one
 * module, so that a file written in one place is the file asked for in another.
 * No `node:` imports, no DOM globals.
 */

/** Id of the boot JSON script every page embeds (`<script id="__SITE_BOOT__" type="application/json">`). */
export const BOOT_ELEMENT_ID = '__SITE_BOOT__'
/** Id of the inline module script that loads the client: once the page has painted, or at the visitor's first action (src/render/document.ts). */
export const CLIENT_LOADER_ID = '__SITE_LOADER__'
/**
 * `Symbol.for` key the router sets on `window` once it handles back/forward; until then the page's loader loads the
 * page of an entry another document of this tab made in full (src/render/document.ts).
 */
export const ROUTER_KEY = 'site:router'
/** Id of the element the app renders into and the browser hydrates. */
export const APP_ROOT_ID = '__site'

/** The engine's folder in the output and its URL prefix (`/_site/`); no page lives under it. */
export const SITE_DIR = '_site'
/** The payload of a page, beside its `index.html`: `/a/b` -> `a/b/_payload.json`. */
export const PAYLOAD_FILE = '_payload.json'

/** Content-hashed scripts, styles and their assets (cached for a year). */
export const ASSETS_DIR = `${SITE_DIR}/assets`

/** Content-hashed data a build writes (each locale's initial data; cached for a year). */
export const DATA_DIR = `${SITE_DIR}/data`

/**
 * The CMS's files a build took into its output (`media: 'copy' | 'optimize'`), each in a folder named by
 * its content hash: `_site/media/<hash>/<original name>` and its variants beside it (cached for a year).
 */
export const MEDIA_DIR = `${SITE_DIR}/media`

// made once: isContentHashedFile looks at every file of an output (60,000 on a 30,000-page site)
const SITE_PREFIX = `${SITE_DIR}/`
const ASSETS_PREFIX = `${ASSETS_DIR}/`
const DATA_PREFIX = `${DATA_DIR}/`
const MEDIA_PREFIX = `${MEDIA_DIR}/`

/**
 * True for a file of the output whose name is its content hash: scripts, styles and their assets,
 * initial data, media. Such a file never changes; a build keeps those of earlier builds for open tabs.
 */
export const isContentHashedFile = (path: string): boolean =>
  path.startsWith(SITE_PREFIX) &&
  (path.startsWith(ASSETS_PREFIX) || path.startsWith(DATA_PREFIX) || path.startsWith(MEDIA_PREFIX))

/** The build manifests and the build store. */
export const BUILDS_DIR = `${SITE_DIR}/builds`
/** `{ id, clientVersion }` of the newest build, polled by open tabs to notice a new build. */
export const LATEST_MANIFEST_FILE = `${BUILDS_DIR}/latest.json`
export const LATEST_MANIFEST_URL = `/${LATEST_MANIFEST_FILE}`
/** The manifest of one build: `_site/builds/meta/<id>.json`. */
export const buildMetaFile = (buildId: string): string => `${BUILDS_DIR}/meta/${buildId}.json`
export const buildMetaUrl = (buildId: string): string => `/${buildMetaFile(buildId)}`
/**
 * The build store: what a build leaves for the next one (pages, uids, links, file hashes; public
 * facts only), written last, read first (src/build/incremental/store.ts).
 */
export const BUILD_STORE_FILE = `${BUILDS_DIR}/state.jsonl`
/**
 * The build store of the last complete build while a commit replaces OUT's files in place: moved aside before
 * the first file, removed once the new store is in (src/build/output/output.ts applyToOutput). A build that finds
 * it without a store carries its slug history into a build from scratch (src/build/incremental/previous.ts).
 * A dotfile: never served (src/serve/handler.ts isHiddenPath) nor deployed (no store lists it).
 */
export const BUILD_STORE_ASIDE_FILE = `${BUILDS_DIR}/.state-previous.jsonl`
/**
 * The media record: each CMS file a build took (URL, ETag, Last-Modified, content hash, size, variants), read
 * back by the next build for its conditional requests (src/media/record.ts).
 */
export const MEDIA_RECORD_FILE = `${BUILDS_DIR}/media.json`

/** A locale's initial data in a build, named by its content hash: ('pl', '1a2b') -> `_site/data/initial-pl-1a2b.json`. */
export const initialDataFile = (locale: string, hash: string): string => `${DATA_DIR}/initial-${locale}-${hash}.json`
/** A locale's live initial data in preview (no hash: it is fetched anew): `/_site/data/initial-pl.json`. */
export const liveInitialDataUrl = (locale: string): string => `/${DATA_DIR}/initial-${locale}.json`
/** The locale of a live initial data URL (`/_site/data/initial-pl.json`, also `initial-pl.<tag>.json`); undefined for others. */
export const localeOfLiveInitialDataUrl = (pathname: string): string | undefined =>
  LIVE_INITIAL_DATA_RE.exec(pathname)?.[1]
const LIVE_INITIAL_DATA_RE = /^\/_site\/data\/initial-([a-z]{2,3}(?:-[A-Za-z0-9]+)*)(?:\.[A-Za-z0-9_-]+)?\.json$/

/** The service worker a static page registers (`public/sw.js`, copied to the output root). */
export const SERVICE_WORKER_URL = '/sw.js'

/** Preview's server-sent events stream of reloads. */
export const RELOAD_EVENTS_URL = `/${SITE_DIR}/events`

/** True for a URL path of the engine's own files (`/_site`, `/_site/…`). */
export const isEngineUrl = (pathname: string): boolean =>
  pathname === `/${SITE_DIR}` || pathname.startsWith(`/${SITE_DIR}/`)

/** Files a build writes at the output root besides pages (a page path may not take their names). */
export const SITEMAP_FILE = 'sitemap.xml'
export const ROBOTS_FILE = 'robots.txt'
export const REDIRECTS_FILE = '_redirects'
export const NOT_FOUND_FILE = '404.html'
/** Numbered sitemap files of a large site, listed by the `sitemap.xml` index: `sitemap-1.xml`. */
export const sitemapPartFile = (n: number): string => `sitemap-${n}.xml`

/** A locale's 404 page: `404.html` for the default locale, `pl/404.html` for the others. */
export const notFoundFile = (locale: string, i18n: { readonly default: string }): string =>
  locale === i18n.default ? NOT_FOUND_FILE : `${locale}/${NOT_FOUND_FILE}`

/**
 * The project's cache folder, under the project root: bundled config files (`config`),
 * templates bundled for Node (`templates`), the browser client of preview (`client`), what the last
 * build checked of its output (`outputs`) and esbuild's bundles kept for the next build (`bundles`).
 */
export const CACHE_DIR = '.site'
export const cacheDir = (kind: 'config' | 'templates' | 'client' | 'outputs' | 'bundles'): string =>
  `${CACHE_DIR}/${kind}`

/**
 * A relative file path of the output: segments of anything but `/`, `\`, controls and line breaks, none `.` or `..`.
 * Spaces are a file's own (`public/Company Profile.pdf`, a screenshot's U+202F): the build publishes them.
 */
const FILE_PATH_RE =
  /^(?!\.\.?(?:\/|$))[^/\\\u0000-\u001f\u007f-\u009f\u2028\u2029]+(?:\/(?!\.\.?(?:\/|$))[^/\\\u0000-\u001f\u007f-\u009f\u2028\u2029]+)*$/u
const MAX_FILE_PATH_LENGTH = 4096
/** A relative path a file of the output may have, as its build state records it (no `..`, no absolute path, no control character or line break). */
export const isOutputFilePath = (path: string): boolean =>
  path.length <= MAX_FILE_PATH_LENGTH && FILE_PATH_RE.test(path)
