import {
  API_MAX_RESPONSE_BYTES,
  API_TIMEOUT_MS,
  BUILD_CONCURRENCY,
  BUILD_MAX_PAGE_BYTES,
  BUILD_MAX_PAGES,
  KEEP_BUILDS,
  MEDIA_LIMIT_INPUT_PIXELS,
  MEDIA_MAX_BYTES,
  MEDIA_WIDTHS_PX,
  PUBLISH_DEPLOY_TIMEOUT_MS,
  PUBLISH_MAX_WAIT_MS,
  PUBLISH_QUIET_MS,
  PUBLISH_RECONCILE_MINUTES,
  RENDER_TIMEOUT_MS,
} from '../shared/constants.js'

/** The one defaults object: every option's default, in one place. */
export const DEFAULTS = {
  baseUrl: undefined,
  api: {
    headers: {},
    credentials: 'omit',
    allowQuery: true,
    proxyHeaders: false,
    proxyReqHeaders: false,
    endpoints: { initialData: '/?type=834', initialDataFallback: '/?type=834' },
    timeoutMs: API_TIMEOUT_MS,
    maxResponseBytes: API_MAX_RESPONSE_BYTES,
  },
  i18n: { default: 'en', locales: ['en', 'pl', 'de'] },
  features: { contentPreview: true, initInitialData: true, i18nMiddleware: true, debug: false },
  preview: { queryParam: 'pce', allowedHosts: [] as readonly string[] },
  tracking: { gtmId: undefined, consentHost: undefined },
  build: {
    outDir: '.output/public',
    concurrency: BUILD_CONCURRENCY,
    maxPages: BUILD_MAX_PAGES,
    maxPageBytes: BUILD_MAX_PAGE_BYTES,
    renderTimeoutMs: RENDER_TIMEOUT_MS,
    redirectPages: false,
    keepBuilds: KEEP_BUILDS,
    renderThreads: 'auto' as number | 'auto',
  },
  publish: {
    webhooks: [] as ReadonlyArray<{ readonly identifier: string; readonly secret: string }>,
    token: undefined,
    quietMs: PUBLISH_QUIET_MS,
    maxWaitMs: PUBLISH_MAX_WAIT_MS,
    reconcileMinutes: PUBLISH_RECONCILE_MINUTES,
    deployTimeoutMs: PUBLISH_DEPLOY_TIMEOUT_MS,
    deploy: undefined,
  },
  media: {
    mode: 'optimize' as 'link' | 'copy' | 'optimize',
    hosts: [] as readonly string[],
    widths: MEDIA_WIDTHS_PX as readonly number[],
    maxBytes: MEDIA_MAX_BYTES,
    limitInputPixels: MEDIA_LIMIT_INPUT_PIXELS,
  },
} as const

/**
 * `build.outDir` of each site when a config has several and sets none: a folder per site, named after
 * its first hostname, so that one site's build never replaces another's output.
 */
export const siteOutDir = (hostname: string): string => `.output/${hostname}/public`

/** Config file names tried, in order, when `--config` is not given. */
export const CONFIG_FILES = [
  'config/site.config.ts',
  'config/site.config.mjs',
  'config/site.config.js',
  'config/site.config.json',
] as const
