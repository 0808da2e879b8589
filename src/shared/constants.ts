/**
 * The engine's fixed numbers: timings, limits and defaults the site's specification sets, and the few the engine adds.
 * Those the browser needs too are in client-constants.ts. No `node:` imports, no DOM globals.
 */

/**
 * The redirect statuses a build writes and preview answers: those `_redirects` takes on Netlify and Cloudflare
 * Pages. A CMS redirect record with another status (300, 304…, none) redirects with 301.
 */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308])
/** The status of a redirect record whose own is none of REDIRECT_STATUSES. */
export const DEFAULT_REDIRECT_STATUS = 301

/**
 * Builds whose content-hashed files (`_site/assets/`, `_site/data/`, `_site/media/`) stay in the output by default: tabs
 * opened on one of them still load their lazy chunks after later deploys.
 */
export const KEEP_BUILDS = 3

/** Parallel API requests of a build (the API's share; render and write do not hold a slot). */
export const BUILD_CONCURRENCY = 4
/**
 * Most paths one build crawls (pages, redirects, broken links): far beyond any real site, and a
 * bound on an API whose every page links to a new one.
 */
export const BUILD_MAX_PAGES = 200_000
/** Largest `index.html` of one page (16 MiB): a real page is tens of kilobytes; the hostile corpus's 5 MB page is 11 MB of HTML. */
export const BUILD_MAX_PAGE_BYTES = 16 * 1024 * 1024
/**
 * A page (or 404 page) whose templates render for longer than this stops the build (RENDER_TIMEOUT): a page of
 * the largest size a build takes renders in about a second, so only a template caught in a loop reaches it.
 */
export const RENDER_TIMEOUT_MS = 60_000
/** An API request whose answer (headers and body) is not complete within this is aborted. */
export const API_TIMEOUT_MS = 15_000
/** An API answer larger than this is refused (32 MiB): a page answer is tens of kilobytes. */
export const API_MAX_RESPONSE_BYTES = 32 * 1024 * 1024

/**
 * The site's stylesheets are inlined into every page (`<style>`) while they total at most this many
 * bytes: one request less before the first paint (Lighthouse's render-blocking audit) for a
 * few kilobytes more per page once compressed. Larger ones stay `<link rel="stylesheet">`, cached.
 */
export const INLINE_STYLES_MAX_BYTES = 64 * 1024

/** `site publish`: waits this long after the last CMS event before it builds (more events in the meantime join the build). */
export const PUBLISH_QUIET_MS = 1_000
/** ...but never longer than this after the first pending event, however steadily events keep coming. */
export const PUBLISH_MAX_WAIT_MS = 10_000
/** A full build over the previous output this often catches what webhooks missed (6 hours). */
export const PUBLISH_RECONCILE_MINUTES = 360
/** Longest a publish's deploy may take before it fails and is tried again (`publish.deployTimeoutMs`, 30 minutes). */
export const PUBLISH_DEPLOY_TIMEOUT_MS = 30 * 60_000
/** The most `publish.deployTimeoutMs` may be: a day (a timer of more than 2^31 ms would fire at once). */
export const PUBLISH_DEPLOY_TIMEOUT_MAX_MS = 24 * 60 * 60_000
/** Longest delay a timer takes (about 24.8 days): a longer one fires at once, so no `…Ms` option may exceed it. */
export const MAX_TIMER_MS = 2 ** 31 - 1
/** Port and address `site publish` listens on by default (loopback: a reverse proxy brings TLS). */
export const PUBLISH_PORT = 4020
/** Largest webhook body read; a larger one is answered 413 and not read further (a TYPO3 message is a few kilobytes). */
export const PUBLISH_MAX_BODY_BYTES = 1024 * 1024
/** A body over PUBLISH_MAX_BODY_BYTES but within this is read to its end and dropped, so its sender reads the 413. */
export const PUBLISH_MAX_DISCARD_BYTES = 8 * 1024 * 1024
/**
 * Most bytes of webhook bodies held at once, across connections, while they are read (a body must be read whole
 * before its signature can be checked): one more is answered 503 with Retry-After, so memory stays bounded.
 */
export const PUBLISH_MAX_READING_BYTES = 16 * 1024 * 1024
/** A webhook request (headers and body) not complete within this is dropped. */
export const PUBLISH_REQUEST_TIMEOUT_MS = 10_000
/**
 * Most connections `site publish` holds open at once; one more is closed as it comes. A CMS sends a webhook at a
 * time: the cap keeps a flood of connections from taking the file descriptors the journal and the builds need.
 */
export const PUBLISH_MAX_CONNECTIONS = 256
/** Pages a publisher's log line or `/status` record lists (of an event or a publish); the others are counted. */
export const PUBLISH_MAX_LISTED_PAGES = 50
/** Most page uids or paths one `/hooks/pages` request may name. */
export const PUBLISH_MAX_PAGES_PER_EVENT = 1_000
/**
 * Most distinct pages pending at once: beyond them, the next publish is a full build over the previous
 * output (as cheap per page, byte-stable) and the list is dropped, so that memory stays bounded under a flood.
 */
export const PUBLISH_MAX_PENDING_PAGES = 10_000
/** Journal appends waiting for their fsync beyond which a webhook is answered 429 (the journal is behind). */
export const PUBLISH_MAX_QUEUED_APPENDS = 512
/** The journal is rewritten with only its pending events once it is this large and a publish has made events live. */
export const PUBLISH_COMPACT_BYTES = 256 * 1024
/** A failed build or deploy is retried after this delay, doubled after each failure up to PUBLISH_RETRY_MAX_MS. */
export const PUBLISH_RETRY_MIN_MS = 1_000
export const PUBLISH_RETRY_MAX_MS = 5 * 60_000
/** Publishes `/status` lists, newest first. */
export const PUBLISH_STATUS_HISTORY = 20
/**
 * Largest `_redirects` that `site serve` reads (64 MiB): a build writes one line per redirect, at most BUILD_MAX_PAGES
 * of them. A larger file (an output someone changed) is refused, not read into memory on every request.
 */
export const SERVE_MAX_REDIRECTS_BYTES = 64 * 1024 * 1024
/** Parallel uploads of a deploy within one of its steps. */
export const DEPLOY_CONCURRENCY = 8
/**
 * Largest deploy record (a target's manifest, its pending record) read back: a manifest of BUILD_MAX_PAGES pages is
 * some 40 MB. A larger one is taken as a record that is not one.
 */
export const DEPLOY_RECORD_MAX_BYTES = 256 * 1024 * 1024
/** How long an S3 request may go without a byte moving (connecting included) before it fails. */
export const DEPLOY_S3_IDLE_TIMEOUT_MS = 30_000
/**
 * A file larger than this goes to S3 in parts of DEPLOY_S3_PART_BYTES, read from disk one part at a time: a deploy
 * holds at most a part a file in memory (a file whole would be 8 files of `media.maxBytes` at once, and a PUT of one
 * body cannot be retried from a stream), and files over 5 GB, S3's limit for one PUT, go too.
 */
export const DEPLOY_S3_MULTIPART_BYTES = 16 * 1024 * 1024
/** The size of a part (S3 takes parts of 5 MiB to 5 GiB, at most 10,000 of them: larger files get larger parts). */
export const DEPLOY_S3_PART_BYTES = 8 * 1024 * 1024
/** Largest CMS file a build takes into its output (`media.maxBytes`, 50 MiB): a larger one fails the build. */
export const MEDIA_MAX_BYTES = 50 * 1024 * 1024
/**
 * Most pixels of an image a build decodes (`media.limitInputPixels`, sharp's option of that name): 100 megapixels,
 * ten times a 4000x2667 photograph; a decompression bomb (a small file of 20000x20000 pixels) is refused.
 */
export const MEDIA_LIMIT_INPUT_PIXELS = 100_000_000
/**
 * Widths of an image's responsive variants (`media.widths`), in pixels; each capped at the original width. 1600 covers
 * an 800 px wide column on a 2x screen; a wider variant costs more encoding time than it gains on real layouts.
 */
export const MEDIA_WIDTHS_PX = [400, 800, 1200, 1600] as const
/**
 * CMS files held in memory at once between their fetch and their last variant written: bounds a build's
 * memory (a 4000x2667 JPEG is ~4 MB of body and ~32 MB decoded) while pages render on.
 */
export const MEDIA_FILES_IN_FLIGHT = 2
/** Largest media record (`_site/builds/media.json`) a build reads back; a larger one is ignored (files fetched again). */
export const MEDIA_RECORD_MAX_BYTES = 64 * 1024 * 1024

/**
 * Most render workers of a build (`build.renderThreads`): one per CPU but one by default (the build's thread
 * reads API answers and writes files), at least one, at most this many (each holds its own React and templates, ~40 MB).
 */
export const RENDER_THREADS_MAX = 4
/**
 * Pages a one-shot build (`site build`, `build.renderThreads: 'auto'`) renders in its own thread before it
 * starts render workers: below this a worker's start costs more than it saves (bench/start.mjs, 2 CPUs).
 */
export const INLINE_RENDER_PAGES = 100
/** Deeper API data than this is cut off (and not searched or digested): no real page nests that far, a hostile one must not blow the stack. */
export const MAX_DATA_DEPTH = 64
/**
 * Most CMS files the build state records for one page (file events find pages by them). A page naming more
 * keeps the first ones in sorted order; a file event for another is caught by the next reconcile.
 */
export const MAX_FILE_REFS_PER_PAGE = 1_000
/** Most pages `site publish` keeps a scheduled re-check for (see publish/schedule.ts); the reconcile covers the rest. */
export const PUBLISH_MAX_SCHEDULED_PAGES = 50_000
/** Furthest off a page answer's time is kept (a year): a longer max-age names no scheduled change. */
export const MAX_RECHECK_MS = 365 * 24 * 3_600_000
/** A scheduled re-check runs this long after the time a page answer gave (its max-age is whole seconds). */
export const PUBLISH_RECHECK_GRACE_MS = 1_000
/**
 * Most pages an `--only` build asks of the API before its crawl, to learn whether the pages linking to them
 * must be rebuilt (build/incremental/only.ts); with more, their answers are not held and every linking page is rebuilt.
 */
export const ONLY_PREFETCH_MAX_PAGES = 500
