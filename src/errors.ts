/**
 * The one error catalogue. Codes are stable: once shipped, a code never changes
 * meaning. Messages keep the site specification's wording, word for word.
 */
import type { DataProblemKind } from './shared/contract.js'
import { clipped } from './shared/values.js'

export type ErrorCode =
  | 'CONFIG_INVALID'
  | 'CONFIG_NOT_FOUND'
  | 'HOSTNAME_NOT_FOUND'
  | 'SITE_AMBIGUOUS'
  | 'USAGE'
  | 'INITIAL_DATA_UNAVAILABLE'
  | 'ROUTE_INVALID'
  | 'PAGE_NOT_FOUND'
  | 'ROUTE_MIDDLEWARE'
  | 'API_HTTP'
  | 'API_TIMEOUT'
  | 'API_NETWORK'
  | 'API_BAD_RESPONSE'
  | 'API_TOO_LARGE'
  | 'CHUNK_LOAD'
  | 'RENDER_FAILED'
  | 'WRITE_OUTSIDE_OUT_DIR'
  | 'BUILD_FAILED'
  | 'BUILD_INTERRUPTED'
  | 'RENDER_TIMEOUT'
  | 'OUT_DIR_NOT_SITE_OUTPUT'
  | 'OUT_DIR_UNWRITABLE'
  | 'OUT_DIR_IN_USE'
  | 'TEMPLATES_INVALID'
  | 'DEMO_CONTENT_INVALID'
  | 'DEPLOY_NO_OUTPUT'
  | 'DEPLOY_FAILED'
  | 'PUBLISH_JOURNAL'
  | 'INIT_NOT_A_DIRECTORY'
  | 'INIT_DIR_NOT_EMPTY'
  | 'INIT_NOT_WRITABLE'
  | 'INIT_WRITE_FAILED'
  | 'WRITE_FAILED'

/**
 * What went wrong with one path or item of a build: the `kind` of each failure and skipped item
 * in `site build --json`, its stderr lines and CI annotations (docs/ci.md). Stable like ErrorCode.
 * Failures: the API's codes, `RENDER_FAILED`, `WRITE_FAILED`, `BROKEN_NAV_LINK` (a navigation link the
 * API answers 404), `MAX_PAGES` and `PAGE_TOO_LARGE` (a limit of the build was reached).
 * Skipped items: `BROKEN_CONTENT_LINK`, `REDIRECT_REFUSED`, `UNSAFE_LINK` (also a link refused by the
 * crawl), `RESERVED_PATH` (a link to a path the build writes itself), `PUBLIC_FILE_SKIPPED`, `CANONICAL_ELSEWHERE`
 * (a page left out of the sitemap, its canonical naming another), the media failures (MediaFailureKind), and the
 * kinds of data problems (`DataProblemKind`: `INVALID_DATA`, `UNSAFE_MARKUP`, `ELEMENT_SKIPPED`, `EMBED_REFUSED`).
 */
export type BuildIssueKind =
  | ApiErrorCode
  | 'RENDER_FAILED'
  | 'WRITE_FAILED'
  | 'BROKEN_NAV_LINK'
  | 'MAX_PAGES'
  | 'PAGE_TOO_LARGE'
  | 'BROKEN_CONTENT_LINK'
  | 'REDIRECT_REFUSED'
  | 'UNSAFE_LINK'
  | 'RESERVED_PATH'
  | 'PUBLIC_FILE_SKIPPED'
  | 'CANONICAL_ELSEWHERE'
  | MediaFailureKind
  | DataProblemKind

/**
 * Why a CMS file a page shows could not be taken into the output (`media.mode` 'copy' or 'optimize'):
 * `MEDIA_HTTP` (the file's URL answered 404, 500…), `MEDIA_NETWORK` (no answer, or none within `api.timeoutMs`),
 * `MEDIA_TOO_LARGE` (over `media.maxBytes`), `MEDIA_TYPE_MISMATCH` (the body is not the image type it claims),
 * `MEDIA_PIXEL_LIMIT` (more pixels than `media.limitInputPixels`: a decompression bomb), `MEDIA_ENCODE_FAILED`
 * (the image could not be decoded or encoded).
 */
export type MediaFailureKind =
  | 'MEDIA_HTTP'
  | 'MEDIA_NETWORK'
  | 'MEDIA_TOO_LARGE'
  | 'MEDIA_TYPE_MISMATCH'
  | 'MEDIA_PIXEL_LIMIT'
  | 'MEDIA_ENCODE_FAILED'

/** Why a page's CMS file failed: a MediaFailureKind, or `WRITE_FAILED` when its copy or a variant could not be written. */
export type MediaFileFailureKind = MediaFailureKind | 'WRITE_FAILED'

/** Codes of a failed API call (FetchError). */
export type ApiErrorCode = Extract<
  ErrorCode,
  'API_HTTP' | 'API_TIMEOUT' | 'API_NETWORK' | 'API_BAD_RESPONSE' | 'API_TOO_LARGE'
>

export interface SiteErrorOptions {
  cause?: unknown
  hint?: string
  /** HTTP status to answer with where the error ends a request. */
  status?: number
}

export class SiteError extends Error {
  readonly code: ErrorCode
  readonly hint?: string
  readonly status: number
  constructor(code: ErrorCode, message: string, options: SiteErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'SiteError'
    this.code = code
    this.hint = options.hint
    this.status = options.status ?? 500
  }
}

/** A failed API call: keeps the status and the body of the answer, as the site's specification requires. */
export class FetchError extends SiteError {
  declare readonly code: ApiErrorCode
  readonly url: string
  readonly method: string
  readonly data: unknown
  constructor(
    code: ApiErrorCode,
    message: string,
    options: SiteErrorOptions & { url: string; method?: string; data?: unknown },
  ) {
    super(code, message, options)
    this.name = 'FetchError'
    this.url = options.url
    this.method = options.method ?? 'GET'
    this.data = options.data
  }
}

/** Codes that mean the user's input (flags, config, templates) is wrong: exit code 2. */
export const USAGE_CODES: ReadonlySet<ErrorCode> = new Set([
  'CONFIG_INVALID',
  'CONFIG_NOT_FOUND',
  'HOSTNAME_NOT_FOUND',
  'SITE_AMBIGUOUS',
  'USAGE',
  'OUT_DIR_NOT_SITE_OUTPUT',
  'OUT_DIR_UNWRITABLE',
  'TEMPLATES_INVALID',
  'DEMO_CONTENT_INVALID',
  'DEPLOY_NO_OUTPUT',
  'INIT_NOT_A_DIRECTORY',
  'INIT_DIR_NOT_EMPTY',
  'INIT_NOT_WRITABLE',
])

export const isSiteError = (error: unknown): error is SiteError => error instanceof SiteError

/** The message of anything thrown: an Error's message, anything else as text. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/**
 * A write the disk refused, naming its file: Node's errors name none for a write (`ENOSPC: no space left on device,
 * write`), and a full or read-only disk is told apart only by where the file was going. Its `code` is kept.
 */
export class WritingFailed extends Error {
  readonly code: string | undefined
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`Writing ${file} failed: ${messageOf(cause)}`, { cause })
    this.name = 'WritingFailed'
    this.code = (cause as NodeJS.ErrnoException).code
  }
}
export const writingFailed = (file: string, cause: unknown): Error => new WritingFailed(file, cause)

/** Whether a file system error says the disk (or the user's quota on it) is full. */
const isDiskFull = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ENOSPC' || code === 'EDQUOT'
}

/** `user:pass@` in any http(s) URL of a text. */
const USERINFO_RE = /\b(https?:\/\/)[^\s/?#@]+@/gi

/**
 * A text with every URL's userinfo written `***@` and every secret (`siteSecrets` in src/config/secrets.ts:
 * the API's password, query and header values) written `***`, for lines a CI log keeps.
 * Example: `GET http://u:pw@h/?t=abcd` with secrets ['abcd'] -> `GET http://***@h/?t=***`.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text.replace(USERINFO_RE, '$1***@')
  for (const secret of secrets) out = out.split(secret).join('***')
  return out
}

/** One problem of a config file: where it is and what was expected. */
export interface ConfigIssue {
  path: string
  message: string
}

export const errors = {
  initialDataUnavailable: (message: string, status = 500, cause?: unknown) =>
    new SiteError('INITIAL_DATA_UNAVAILABLE', `Initial Data is unavailable: ${message}`, { status, cause }),
  pageNotFound: (path: string) => new SiteError('PAGE_NOT_FOUND', `Page not found: ${path}`, { status: 404 }),
  routeInvalid: (path: string) => new SiteError('ROUTE_INVALID', `Page Not Found: ${path}`, { status: 404 }),
  hostnameNotFound: (host: string, known: readonly string[] = []) =>
    new SiteError('HOSTNAME_NOT_FOUND', `Hostname: ${host} not found in sites configuration`, {
      status: 404,
      hint: known.length ? `Configured hosts: ${known.join(', ')}` : undefined,
    }),
  routeMiddleware: (cause?: unknown) =>
    new SiteError('ROUTE_MIDDLEWARE', 'Unknown route middleware error', { status: 500, cause }),
  /** `cause`: esbuild's failure when the file does not compile (preview's overlay shows where). */
  configInvalid: (file: string, issues: readonly ConfigIssue[], cause?: unknown) =>
    Object.assign(
      new SiteError(
        'CONFIG_INVALID',
        `Invalid configuration in ${file}:\n${issues.map((i) => `  - ${i.path}: ${i.message}`).join('\n')}`,
        { status: 500, cause },
      ),
      { issues },
    ),
  redirectRefused: (to: string, reason: string) =>
    new SiteError(
      'API_BAD_RESPONSE',
      `Refused a redirect to an unsafe target: ${JSON.stringify(to.slice(0, 200))} (${reason})`,
      {
        status: 502,
      },
    ),
  usage: (message: string) => new SiteError('USAGE', message, { status: 400 }),
  writeOutside: (path: string, why: string) =>
    new SiteError('WRITE_OUTSIDE_OUT_DIR', `Refused to write ${JSON.stringify(path.slice(0, 200))}: ${why}`, {
      hint: 'Paths from the API and from a previous output are checked before they reach the writer; this is a bug or a hostile path.',
    }),
  outDirNotSiteOutput: (outDir: string, why: string) =>
    new SiteError('OUT_DIR_NOT_SITE_OUTPUT', `Refusing to build into ${outDir}: ${why}`, {
      status: 400,
      // site publish refuses such a folder too, and has no --force: name the command that has it
      hint: 'A build replaces its output folder: point --out at an empty folder or at a previous site output (`site build --force` replaces it anyway).',
    }),
  outDirUnwritable: (outDir: string, why: string, cause?: unknown) =>
    new SiteError('OUT_DIR_UNWRITABLE', `Cannot build into ${outDir}: ${why}`, {
      status: 400,
      cause,
      hint: isDiskFull(cause)
        ? 'The disk that holds the output folder is full: free space on it, or point --out at a folder on another disk.'
        : 'A build writes a temporary folder beside its output folder, then moves it in place: point --out at a folder whose parent you may write to.',
    }),
  /** OUT is held by another process, named by its lock beside OUT: `holder` is its command (`site publish`, `site build`). */
  outDirInUse: (outDir: string, holder: 'publish' | 'build' | 'deploy', pid: number, advice: string) =>
    new SiteError(
      'OUT_DIR_IN_USE',
      `The output folder ${outDir} is used by site ${holder} (process ${pid}): ${advice}`,
      { status: 409 },
    ),
  buildInterrupted: (signal: string) =>
    new SiteError('BUILD_INTERRUPTED', `Build interrupted by ${signal}: the output folder was left as it was`, {
      status: 500,
    }),
  /** `what`: the page whose render was ended (its path), or `the 404 page (pl)`. */
  renderTimeout: (what: string, limitMs: number) =>
    new SiteError(
      'RENDER_TIMEOUT',
      `Rendering ${what} took longer than ${limitMs} ms (build.renderTimeoutMs) and was stopped: its templates may loop for ever`,
      {
        status: 500,
        hint: 'Nothing was written to the output folder. Look for a loop in the layout and the content elements this page renders (a while loop, a recursive component). A slow machine rendering a very large page may need a longer build.renderTimeoutMs.',
      },
    ),
  deployNoOutput: (outDir: string, why: string) =>
    new SiteError('DEPLOY_NO_OUTPUT', `Nothing to deploy in ${outDir}: ${why}`, {
      status: 400,
      hint: 'Deploy uploads what `site build` wrote, judged by the hashes of its build state: run `site build` first (same --out).',
    }),
  deployFailed: (target: string, what: string, cause?: unknown) =>
    new SiteError('DEPLOY_FAILED', `Deploy to ${target} failed: ${what}`, {
      cause,
      hint: 'Open tabs stay on the build the target had (latest.json goes last); files already sent stay, each whole. The next deploy sends again all this one may have changed.',
    }),
  /** A `dir:` target another deploy holds: refused before anything was sent. */
  deployBusy: (target: string, pid: number, lock: string) =>
    new SiteError(
      'DEPLOY_FAILED',
      `Deploy to ${target} failed: another deploy is sending to it (process ${pid}, ${lock}): wait for it to finish`,
      { hint: 'Nothing was sent. Run this deploy again once that one has ended.' },
    ),
  publishJournal: (file: string, what: string, cause?: unknown) =>
    new SiteError('PUBLISH_JOURNAL', `The publish journal ${file} ${what}`, { cause, status: 503 }),
  /** A write the disk refused outside a build's output (the project's `.site/` cache): the file is named. */
  writeFailed: (failure: WritingFailed) =>
    new SiteError('WRITE_FAILED', failure.message, {
      status: 500,
      cause: failure,
      hint: isDiskFull(failure)
        ? 'The disk is full: free space on it and run the command again.'
        : 'Check that the folder may be written: its permissions, a read-only file system, a file where a folder should be.',
    }),
  initNotADirectory: (path: string) =>
    new SiteError('INIT_NOT_A_DIRECTORY', `Cannot create a site in ${path}: it is a file, not a folder`, {
      status: 400,
      hint: 'Name a new folder or an empty one: site init my-site',
    }),
  initDirNotEmpty: (dir: string, entries: readonly string[]) =>
    new SiteError(
      'INIT_DIR_NOT_EMPTY',
      `Refusing to create a site in ${dir}: the folder is not empty (${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', …' : ''})`,
      {
        status: 400,
        hint: 'Name a new or empty folder, or pass --force to write the site into this one (files of the same name are replaced).',
      },
    ),
  initNotWritable: (path: string, code: string) =>
    new SiteError('INIT_NOT_WRITABLE', `Cannot create a site in ${path}: no permission to write there (${code})`, {
      status: 400,
      hint: 'Choose a folder you may write to, or fix its permissions.',
    }),
  initWriteFailed: (path: string, cause: unknown) =>
    new SiteError('INIT_WRITE_FAILED', `Writing ${path} failed: ${messageOf(cause)}; nothing was left behind`, {
      status: 500,
      cause,
    }),
  siteAmbiguous: (known: readonly string[]) =>
    new SiteError('SITE_AMBIGUOUS', `Several sites are configured; choose one with --site HOST (${known.join(', ')})`, {
      status: 400,
    }),
} as const

/** An issue of a build as the catalogue makes it: the failure or skipped item adds where (path, item, source). */
export interface BuildIssue<K extends BuildIssueKind = BuildIssueKind> {
  kind: K
  /** The API's status, or 500 for the build's own errors; absent for what is skipped without an answer. */
  status?: number
  /** The cause, in words: what the `kind` is is not repeated in it. */
  reason: string
}

/** A failure: it always has a status (the API's, or 500 for the build's own errors). */
export type FailingIssue<K extends BuildIssueKind = BuildIssueKind> = BuildIssue<K> & { status: number }

const failing = <K extends BuildIssueKind>(kind: K, reason: string, status: number): FailingIssue<K> => ({
  kind,
  status,
  reason,
})
const skipped = <K extends BuildIssueKind>(kind: K, reason: string, status?: number): BuildIssue<K> =>
  status === undefined ? { kind, reason } : { kind, status, reason }

/** `[from /about; page uid 12; content element uid 34]`, with what is known; '' when nothing is. */
export function describeSource(source: { from?: string; pageUid?: number; elementUid?: number }): string {
  const parts = [
    source.from === undefined ? undefined : `from ${source.from}`,
    source.pageUid === undefined ? undefined : `page uid ${source.pageUid}`,
    source.elementUid === undefined ? undefined : `content element uid ${source.elementUid}`,
  ].filter((part) => part !== undefined)
  return parts.length ? ` [${parts.join('; ')}]` : ''
}

/**
 * The build's failures and skipped items (BuildIssueKind), made here and only here, so that each kind's
 * status and wording live in one place. Example: `buildIssues.brokenNavLink(404, '/')` ->
 * `{ kind: 'BROKEN_NAV_LINK', status: 404, reason: 'the API answers 404 (linked from /)' }`.
 */
export const buildIssues = {
  /** An API call that failed (FetchError); anything else thrown by the client is a network failure. */
  api: (error: unknown): FailingIssue =>
    error instanceof FetchError
      ? { kind: error.code, status: error.status, reason: error.message }
      : { kind: 'API_NETWORK', status: 500, reason: messageOf(error) },
  notAPage: (problems: readonly string[]) =>
    failing('API_BAD_RESPONSE', `the API answer is not a page: ${problems.join('; ')}`, 502),
  renderFailed: (error: unknown) => failing('RENDER_FAILED', messageOf(error), 500),
  keptDataMissing: () => failing('RENDER_FAILED', 'the previous build kept no page data here', 500),
  writeFailed: (error: unknown) => failing('WRITE_FAILED', messageOf(error), 500),
  pageTooLarge: (bytes: number, limit: number) =>
    failing(
      'PAGE_TOO_LARGE',
      `the page's HTML is ${bytes} bytes, over the limit of ${limit} (build.maxPageBytes, --max-page-bytes): the build stopped here`,
      500,
    ),
  maxPages: (limit: number) =>
    failing(
      'MAX_PAGES',
      `more than ${limit} pages (build.maxPages, --max-pages): this link is one too many, the build stopped here`,
      500,
    ),
  brokenNavLink: (status: number, from: string) =>
    failing('BROKEN_NAV_LINK', `the API answers ${status} (linked from ${from})`, status),
  brokenContentLink: (status: number) => skipped('BROKEN_CONTENT_LINK', `the API answers ${status}`, status),
  redirectRefused: (why: string) => skipped('REDIRECT_REFUSED', why),
  canonicalElsewhere: (canonical: string) =>
    skipped(
      'CANONICAL_ELSEWHERE',
      `left out of the sitemap: its canonical names another page (${clipped(canonical, 200)})`,
    ),
  reservedPath: () => skipped('RESERVED_PATH', 'collides with a file the build writes'),
  unsafeLink: (why: string) => skipped('UNSAFE_LINK', why),
  publicFileSkipped: (why: string) => skipped('PUBLIC_FILE_SKIPPED', why),
} as const

/** Node's error for `process.cwd()` in a folder removed since the shell entered it: `ENOENT ..., uv_cwd`. */
const isCwdGone = (error: unknown): boolean =>
  error instanceof Error &&
  (error as NodeJS.ErrnoException).code === 'ENOENT' &&
  (error as NodeJS.ErrnoException).syscall === 'uv_cwd'

/**
 * An error as the command reports it: a write the disk refused as the WRITE_FAILED it is, a current folder that is
 * gone as USAGE, anything else as it is.
 */
export const asReported = (error: unknown): unknown =>
  error instanceof WritingFailed
    ? errors.writeFailed(error)
    : isCwdGone(error)
      ? errors.usage(
          'The current folder no longer exists (removed or replaced since the shell entered it): cd into the project again',
        )
      : error
