/**
 * Site configuration. Option names follow nuxt-typo3 v2's,
 * so that its users recognise them. `UserConfig` is what a config file holds
 * (everything optional), `ResolvedSite` what the engine works with.
 */

export type Credentials = 'include' | 'omit' | 'same-origin'

export interface ApiOptions {
  /** Origin of the TYPO3 API; every request path is appended to it. Required. */
  baseUrl?: string
  /** Headers sent with every API request. @default {} */
  headers?: Record<string, string>
  /** Fetch credentials mode, kept for nuxt-typo3 compatibility: the API is only called from Node, so forward cookies with `proxyReqHeaders: ['cookie']`. @default 'omit' */
  credentials?: Credentials
  /** Query parameters passed to the page request: `true` all, `false` none, or a list (`type` always passes). @default true */
  allowQuery?: boolean | string[]
  /** API response headers copied onto preview's HTML response (lower-case names). @default false */
  proxyHeaders?: false | string[]
  /** Incoming preview request headers forwarded to the API (lower-case names). @default false */
  proxyReqHeaders?: false | string[]
  endpoints?: {
    /** Initial data endpoint; a leading `/` fetches it for the locale root. @default '/?type=834' */
    initialData?: string
    /** Tried once when the primary endpoint fails. @default '/?type=834' */
    initialDataFallback?: string
  }
  /** Deadline of one API request, headers and body together, in milliseconds: an answer not complete by then fails with `API_TIMEOUT`. @default 15000 */
  timeoutMs?: number
  /** Largest API answer read, in bytes; a larger one fails with `API_TOO_LARGE` and is not read further. @default 33554432 (32 MiB) */
  maxResponseBytes?: number
}

export interface SiteOptions {
  /** Public origin of the site, e.g. `https://www.example.com`: canonical, hreflang, sitemap. @default undefined */
  baseUrl?: string
  api?: ApiOptions
  i18n?: {
    /** Locale served without a path prefix. @default 'en' */
    default?: string
    /** Locales recognised as the first path segment. @default ['en', 'pl', 'de'] */
    locales?: string[]
  }
  features?: {
    /** Allow editor preview mode (`?pce=1`) in `site preview`. @default true */
    contentPreview?: boolean
    /** Fetch initial data (navigation, footer, languages) for every locale. @default true */
    initInitialData?: boolean
    /** Re-fetch initial data when a client navigation changes locale. @default true */
    i18nMiddleware?: boolean
    /**
     * Honour `?debug` in `site preview`: raw API errors and stack traces on error pages, the raw data of
     * content elements without a template. Off, `?debug` is ignored; `site preview --debug` turns it on for one run. @default false
     */
    debug?: boolean
  }
  preview?: {
    /** Query parameter that switches editor preview mode on when it equals `1`. @default 'pce' */
    queryParam?: string
    /**
     * Host names `site preview` answers for besides loopback names, the sites' `hostname`s and the `baseUrl` hosts
     * (DNS rebinding). A leading dot allows the subdomains too: `'.preview.example.com'`. @default []
     */
    allowedHosts?: string[]
  }
  tracking?: {
    /** Tag-manager container id, e.g. `GTM-XXXXXXX`; no script when unset. @default undefined */
    gtmId?: string
    /** Consent provider host to preconnect to, e.g. `https://consent.example.com`. @default undefined */
    consentHost?: string
  }
  build?: {
    /** Output folder of `site build`, relative to the project root. @default '.output/public' */
    outDir?: string
    /** Parallel API requests during a build, 1 to 64. @default 4 */
    concurrency?: number
    /** Most paths (pages, redirects, broken links) a build crawls; the first one beyond fails the build and stops it. @default 200000 */
    maxPages?: number
    /** Largest `index.html` of one page, in bytes; a larger page fails the build and stops it. @default 16777216 (16 MiB) */
    maxPageBytes?: number
    /**
     * Longest a page's (or a 404 page's) templates may render, in milliseconds: a render still running then (a
     * template caught in a loop) is ended, and the build stops with RENDER_TIMEOUT naming the page. @default 60000
     */
    renderTimeoutMs?: number
    /**
     * Also write a page at each redirect's old path that redirects (by a script that keeps the visitor's query and
     * #fragment, a meta refresh without scripts), for static hosts that do not read `_redirects` (S3, nginx, GitHub
     * Pages). Leave it off on Netlify, where such a page would be served instead of the `_redirects` rule (200, not
     * 301). @default false
     */
    redirectPages?: boolean
    /**
     * Builds whose content-hashed files (scripts, styles, initial data, CMS files) stay in the output, so that a tab
     * opened on an older build still loads its lazy chunks; builds that changed none of them do not count. 1 to 100.
     * @default 3
     */
    keepBuilds?: number
    /**
     * Render worker threads of `site build` and `site publish`: `'auto'` is one per CPU but one (the build's
     * thread takes API answers and writes files), at least 1, at most 4, started by `site build` only once it
     * has more than 100 pages to render; `0` renders in the build's thread.
     * @default 'auto'
     */
    renderThreads?: number | 'auto'
  }
  /** `site publish` (CMS webhooks to a live site) and its deploys; see docs/publish.md. */
  publish?: PublishOptions
  /** What `site build` and `site publish` do with the CMS's files (see MediaOptions). */
  media?: MediaOptions
}

/** A TYPO3 webhook record (System > Webhooks): its identifier (a UUID) and its secret. */
export interface WebhookRecord {
  identifier: string
  secret: string
}

export interface PublishOptions {
  /** TYPO3 webhook records whose signed messages `POST /hooks/typo3` accepts. @default [] */
  webhooks?: WebhookRecord[]
  /** Bearer token of `POST /hooks/pages` and `POST /hooks/full`; unset, both answer 401. @default undefined */
  token?: string
  /** Quiet period after the last event before a publish starts, in milliseconds. @default 1000 */
  quietMs?: number
  /** Longest wait after the first pending event before a publish starts, in milliseconds. @default 10000 */
  maxWaitMs?: number
  /** A full build over the previous output runs this often, in minutes, to catch what webhooks missed. @default 360 */
  reconcileMinutes?: number
  /** Longest a publish's deploy may take, in milliseconds, before it fails and is tried again (a host's CLI that hangs). @default 1800000 */
  deployTimeoutMs?: number
  /** Where each publish goes after its build: `dir:PATH`, `s3://BUCKET/PREFIX` or `command:CMD`; unset, the output folder itself. @default undefined */
  deploy?: string
}

/** The publish options of one site with every default filled in. */
export interface ResolvedPublish {
  readonly webhooks: readonly Readonly<WebhookRecord>[]
  readonly token: string | undefined
  readonly quietMs: number
  readonly maxWaitMs: number
  readonly reconcileMinutes: number
  readonly deployTimeoutMs: number
  readonly deploy: string | undefined
}

/**
 * What `site build` and `site publish` do with the CMS's files (images, galleries, downloads, og:image):
 * `'link'` points at the CMS as the API names them; `'copy'` fetches each once and serves it from the output
 * (`/_site/media/<hash>/<name>`); `'optimize'` copies, and makes responsive AVIF, WebP and original-format
 * variants of raster images. `site preview` always links, so that editors see an upload at once.
 */
export type MediaMode = 'link' | 'copy' | 'optimize'

export interface MediaOptions {
  /** @default 'optimize' */
  mode?: MediaMode
  /** Hosts whose files are fetched besides the API's own origin (bare host names). @default [] */
  hosts?: string[]
  /** Widths of the responsive variants in pixels, each capped at the original width. @default [400, 800, 1200, 1600] */
  widths?: number[]
  /** Largest file fetched, in bytes; a larger one fails the build (`MEDIA_TOO_LARGE`). @default 52428800 (50 MiB) */
  maxBytes?: number
  /** Most pixels of an image decoded (sharp's `limitInputPixels`); more fails the build (`MEDIA_PIXEL_LIMIT`). @default 100000000 */
  limitInputPixels?: number
}

export interface SiteEntry extends SiteOptions {
  /** Host name(s) this site answers to, without scheme or port. */
  hostname: string | string[]
}

export interface UserConfig extends SiteOptions {
  /** Per-host overrides, deep-merged over the options above. */
  sites?: SiteEntry[]
}

/** Flags of the CLI, laid over the chosen site. */
export interface InlineConfig {
  configFile?: string
  root?: string
  apiBaseUrl?: string
  outDir?: string
  concurrency?: number
  maxPages?: number
  maxPageBytes?: number
  /** `--media`: `media.mode` for this run. */
  media?: MediaMode
  /** `site preview --debug`: `features.debug` on for this run. */
  debug?: boolean
  /** For commands that never call the API (`site serve`): no error when no `api.baseUrl` is set (it is then ''). */
  apiOptional?: boolean
}

type DeepRequired<T> = {
  readonly [K in keyof T]-?: NonNullable<T[K]> extends Record<string, unknown> ? DeepRequired<NonNullable<T[K]>> : T[K]
}

/** A site with every option filled in; what code past `config/` sees. */
export interface ResolvedSite {
  readonly hostnames: readonly string[]
  readonly baseUrl: string | undefined
  readonly api: Readonly<{
    baseUrl: string
    headers: Readonly<Record<string, string>>
    credentials: Credentials
    allowQuery: boolean | readonly string[]
    proxyHeaders: false | readonly string[]
    proxyReqHeaders: false | readonly string[]
    endpoints: Readonly<{ initialData: string; initialDataFallback: string }>
    timeoutMs: number
    maxResponseBytes: number
  }>
  readonly i18n: Readonly<{ default: string; locales: readonly string[] }>
  readonly features: DeepRequired<NonNullable<SiteOptions['features']>>
  readonly preview: Readonly<{ queryParam: string; allowedHosts: readonly string[] }>
  readonly tracking: Readonly<{ gtmId: string | undefined; consentHost: string | undefined }>
  readonly build: Readonly<{
    outDir: string
    concurrency: number
    maxPages: number
    maxPageBytes: number
    renderTimeoutMs: number
    redirectPages: boolean
    keepBuilds: number
    renderThreads: number | 'auto'
  }>
  readonly media: Readonly<{
    mode: MediaMode
    hosts: readonly string[]
    widths: readonly number[]
    maxBytes: number
    limitInputPixels: number
  }>
}

export interface ResolvedConfig {
  /** Project root: `templates/` and `public/` are read from here. */
  readonly root: string
  /** The config file that was loaded (absolute path). */
  readonly configFile: string
  readonly sites: readonly ResolvedSite[]
  /**
   * The publish options of each site, in the order of `sites` (see publishOptionsOf). Kept beside the sites,
   * not in them: a site's options are digested into its public build state, and secrets do not belong there.
   */
  readonly publish?: readonly ResolvedPublish[]
}
