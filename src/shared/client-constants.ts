/**
 * The engine's fixed numbers that the browser needs too (the visitor client, the editor's widgets, the runtime
 * templates use), apart from constants.ts: a bundle that imported that file would carry its server limits along
 * unused (esbuild keeps an unused `16 * 1024 * 1024`). No `node:` imports, no DOM globals.
 */

/** Route loading bar timings. */
export const LOADING_BAR = {
  /** Do not show the bar for navigations faster than this. */
  throttleMs: 200,
  /** Estimated duration the bar's progress is paced on. */
  durationMs: 2000,
  /** Keep the finished bar visible this long. */
  hideDelayMs: 500,
  /** Reset the hidden bar to zero after this. */
  resetDelayMs: 400,
  heightPx: 3,
} as const

/** A forced reload of the same path is not repeated inside this window. */
export const RELOAD_GUARD_MS = 10_000
/** `sessionStorage` key the reload guard keeps its timestamps under. */
export const RELOAD_GUARD_KEY = 'site:reload-guard'

/** At most this many route payloads are prefetched at once. */
export const PRELOAD_CONCURRENCY = 4
/** The first check of builds/latest.json waits this long after load. */
export const MANIFEST_CHECK_DELAY_MS = 1_000
/** Then latest.json is polled on this interval (and when the tab becomes visible). */
export const MANIFEST_CHECK_INTERVAL_MS = 60_000
/**
 * A request of the visitor client (a page payload, latest.json, an initial data file) not answered in full within
 * this is given up, as a failed one: a stalled connection must not leave a link that waits for ever.
 */
export const CLIENT_REQUEST_TIMEOUT_MS = 8_000

/** Longest path the router accepts, in characters. */
export const MAX_PATH_LENGTH = 1024
/** Longest single path segment (most file systems allow 255 bytes per name). */
export const MAX_SEGMENT_BYTES = 200

/** Head defaults: `twitter:card` when the page sets none, and the `og:type` of every page. */
export const DEFAULT_TWITTER_CARD = 'summary'
export const DEFAULT_OG_TYPE = 'website'

/** Query parameter carrying the build id on payload requests. */
export const BUILD_ID_QUERY = '_b'

/** Editor preview (`?pce=1`, docs/editors.md): its options with their defaults, and its window messages. */
export const PREVIEW_OPTIONS_KEY = 'pce-options'
export const PREVIEW_OPTION_DEFAULTS = {
  'dim-inactive': true,
  'show-outline-on-link-hover': true,
  'show-location-indicators': true,
  'navigate-pages-in-typo3': true,
  'always-show-links': false,
  'always-show-outline': false,
} as const
export type PreviewOptionId = keyof typeof PREVIEW_OPTION_DEFAULTS

export const PREVIEW_MESSAGES = {
  openEditUid: 'pce-open-edit-uid',
  openPageUid: 'pce-open-page-uid',
  scrollToUid: 'pce-scroll-to-uid',
  previewReady: 'pce-preview-ready',
} as const
