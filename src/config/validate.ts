import { isIPv6 } from 'node:net'
import { parseDeploySpec } from '../deploy/target-spec.js'
import type { ConfigIssue } from '../errors.js'
import { MAX_TIMER_MS, PUBLISH_DEPLOY_TIMEOUT_MAX_MS, RENDER_THREADS_MAX } from '../shared/constants.js'
import { isRecord, ownValue } from '../shared/values.js'

/**
 * Checks a config object against the option table and returns every problem at
 * once, each with its key path (`sites[1].api.baseUrl`) and what was expected.
 */

type Check = (value: unknown) => string | undefined
type Shape = { [key: string]: Check | Shape }

/**
 * A value as the checks see it: a list's empty slot (`['en', , 'pl']`, two commas in a row) as `undefined`,
 * which each item's check refuses; `every()` would skip it, and the slot would fail later without its option's name.
 */
const dense = (v: unknown): unknown => (Array.isArray(v) ? Array.from(v) : v)

const string: Check = (v) => (typeof v === 'string' && v.length > 0 ? undefined : 'expected a non-empty string')
const boolean: Check = (v) => (typeof v === 'boolean' ? undefined : 'expected true or false')
const httpUrl: Check = (v) => {
  if (typeof v !== 'string') return 'expected an http(s) URL string'
  try {
    const url = new URL(v)
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? undefined
      : `expected an http(s) URL, got protocol ${url.protocol}`
  } catch {
    return `expected an absolute http(s) URL, got ${JSON.stringify(v)}`
  }
}
/**
 * The site's `baseUrl` is its public origin: every page, redirect and file is written at the
 * root of the host, so a path (`https://example.com/blog`), query, fragment or user would give
 * a sitemap, canonical links and a robots.txt naming URLs the output does not serve.
 */
const siteOrigin: Check = (v) => {
  const error = httpUrl(v)
  if (error !== undefined) return error
  const url = new URL(v as string)
  const extra =
    url.username || url.password ? 'a user' : url.pathname !== '/' ? `path ${url.pathname}` : url.search || url.hash
  return extra ? `expected the site's origin (scheme, host and port only), got ${extra}` : undefined
}
/**
 * The content API's URL: every request path is appended to it, so a fragment (`#…`) would swallow each path
 * and every request would ask for the API's root.
 */
const apiUrl: Check = (v) => {
  const error = httpUrl(v)
  if (error !== undefined) return error
  const { hash } = new URL(v as string)
  return hash ? `expected no fragment (${hash}): request paths are appended to this URL` : undefined
}
/** Parallel API requests: enough for any CMS, not so many that a build floods it. */
const MAX_CONCURRENCY = 64
const concurrency: Check = (v) =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_CONCURRENCY
    ? undefined
    : `expected a whole number from 1 to ${MAX_CONCURRENCY}`
/** Builds kept in the output: enough for any deploy rhythm, bounded so the output does not grow without end. */
const MAX_KEEP_BUILDS = 100
const keepBuilds: Check = (v) =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_KEEP_BUILDS
    ? undefined
    : `expected a whole number from 1 to ${MAX_KEEP_BUILDS}`
/** A name (a leading dot: its subdomains too) or an IP address, IPv6 in brackets or not (`[fd00::5]`, `fd00::5`). */
const isAllowedHost = (host: string): boolean =>
  /^\.?[a-z0-9-]+(?:\.[a-z0-9-]+)*$/i.test(host) || isIPv6(host.replace(/^\[(.*)\]$/, '$1'))

const renderThreads: Check = (v) =>
  v === 'auto' || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= RENDER_THREADS_MAX)
    ? undefined
    : `expected 'auto' or a whole number from 0 to ${RENDER_THREADS_MAX}`
const positiveInt: Check = (v) =>
  Number.isInteger(v) && (v as number) > 0 ? undefined : 'expected a whole number greater than 0'
/** A delay a timer waits for: beyond MAX_TIMER_MS the timer would fire at once (every API request timed out). */
const timerMs: Check = (v) =>
  Number.isInteger(v) && (v as number) > 0 && (v as number) <= MAX_TIMER_MS
    ? undefined
    : `expected a whole number of milliseconds from 1 to ${MAX_TIMER_MS} (about 24.8 days)`
/** Most pixels of an image decoded: sharp refuses a `limitInputPixels` beyond a safe integer, and so every image. */
const pixelLimit: Check = (v) =>
  Number.isSafeInteger(v) && (v as number) > 0
    ? undefined
    : `expected a whole number of pixels from 1 to ${Number.MAX_SAFE_INTEGER}`
/** Longest reconcile period: a year. Beyond it the next reconcile's time would leave what a date can say. */
const MAX_RECONCILE_MINUTES = 525_600
const reconcileMinutes: Check = (v) =>
  Number.isInteger(v) && (v as number) > 0 && (v as number) <= MAX_RECONCILE_MINUTES
    ? undefined
    : `expected a whole number of minutes from 1 to ${MAX_RECONCILE_MINUTES} (a year)`
const deployTimeoutMs: Check = (v) =>
  Number.isInteger(v) && (v as number) >= 1000 && (v as number) <= PUBLISH_DEPLOY_TIMEOUT_MAX_MS
    ? undefined
    : `expected a whole number of milliseconds from 1000 to ${PUBLISH_DEPLOY_TIMEOUT_MAX_MS} (a day)`
const stringList: Check = (v) =>
  Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0)
    ? undefined
    : 'expected a list of non-empty strings'
const headerList: Check = (v) =>
  v === false || (Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0 && s === s.toLowerCase()))
    ? undefined
    : 'expected false or a list of lower-case header names'
/** A header name (an HTTP token) and a value an HTTP request carries: no line break, no other control character but tab. */
const HEADER_NAME_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/
const HEADER_VALUE_RE = /^[\t\x20-\x7e\x80-\xff]*$/
const headers: Check = (v) => {
  if (!isRecord(v) || !Object.values(v).every((s) => typeof s === 'string'))
    return 'expected an object of header name to string value'
  for (const [name, value] of Object.entries(v as Record<string, string>)) {
    if (!HEADER_NAME_RE.test(name)) return `header '${name}': not a header name (letters, digits and !#$%&'*+-.^_\`|~)`
    if (HEADER_VALUE_RE.test(value)) continue
    // past Latin-1 (`ł`, a pasted zero-width space) is no control character: said as what it is, the value not shown
    return /[^\u0000-\u00ff]/.test(value)
      ? `header '${name}': its value holds a character past Latin-1 (a letter such as ł, a typographic quote, a zero-width space), which no header can carry`
      : `header '${name}': its value holds a line break or another control character`
  }
  return undefined
}
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    values.includes(v as string) ? undefined : `expected one of ${values.map((x) => `'${x}'`).join(', ')}`
const endpoint: Check = (v) =>
  typeof v === 'string' && (v.startsWith('/') || v.startsWith('?'))
    ? undefined
    : "expected a path ('/?type=834') or a query ('?type=834')"
/** A locale code: the language in lower case, as path prefixes (`/pl/`), texts files and initial data URLs are named. */
export const LOCALE_CODE_RE = /^[a-z]{2}(-[A-Za-z0-9]+)?$/
const locale: Check = (v) =>
  typeof v === 'string' && LOCALE_CODE_RE.test(v)
    ? undefined
    : "expected a locale code such as 'en', 'pl' or 'pt-BR' (its language in lower case)"
const localeList: Check = (v) =>
  Array.isArray(v) && v.length > 0 && v.every((s) => locale(s) === undefined)
    ? undefined
    : "expected a non-empty list of locale codes such as ['en', 'pl', 'pt-BR'] (each language in lower case)"
const hostnames: Check = (v) => {
  const list = Array.isArray(v) ? v : [v]
  if (list.length === 0) return 'expected a host name or a list of host names'
  return list.every((h) => typeof h === 'string' && /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?$/i.test(h))
    ? undefined
    : 'expected a bare host name (no scheme, port or path) or a list of them'
}

const deployTarget: Check = (v) => {
  if (typeof v !== 'string') return "expected a deploy target: 'dir:PATH', 's3://BUCKET/PREFIX' or 'command:CMD'"
  const spec = parseDeploySpec(v)
  return 'error' in spec ? spec.error : undefined
}
/**
 * TYPO3 webhook records: each with its identifier and secret, no identifier twice. An empty secret (a variable
 * unset where the config is read) is refused by `site publish` alone (publish/server.ts): a build, a deploy or
 * a preview reads the same config without the publisher's secrets.
 */
const webhooks: Check = (v) => {
  const valid =
    Array.isArray(v) &&
    v.every((w) => isRecord(w) && !string(w.identifier) && typeof w.secret === 'string' && Object.keys(w).length === 2)
  if (!valid) return 'expected a list of { identifier, secret } objects (strings, the identifier not empty)'
  const list = v as Array<{ identifier: string; secret: string }>
  // TYPO3 signs with both as shown: one read from a file with its newline would have every webhook refused 401
  for (const webhook of list)
    for (const field of ['identifier', 'secret'] as const)
      if (webhook[field].trim() !== webhook[field])
        return `webhook ${webhook.identifier.trim()}: its ${field} begins or ends with a space or line break (read from a file with its newline?), so no request TYPO3 signs would match`
  const ids = list.map((w) => w.identifier)
  return new Set(ids).size === ids.length ? undefined : 'each webhook identifier may appear once'
}
/**
 * A bearer token as an `Authorization` header carries it: visible ASCII, no space (a read secret's newline). An
 * empty one (a variable unset where the config is read) is refused by `site publish` alone (publish/server.ts).
 */
const bearerToken: Check = (v) =>
  typeof v === 'string' && /^[\x21-\x7e]*$/.test(v)
    ? undefined
    : 'expected a token of visible ASCII characters, without spaces or line breaks (no Authorization header holds them)'
/** Widest variant asked for: wider than any screen's device pixels. */
const MAX_MEDIA_WIDTH_PX = 8192
const mediaMode = oneOf('link', 'copy', 'optimize')
const widths: Check = (v) =>
  Array.isArray(v) &&
  v.length > 0 &&
  v.length <= 16 &&
  v.every((w) => Number.isInteger(w) && w >= 16 && w <= MAX_MEDIA_WIDTH_PX)
    ? undefined
    : `expected a list of 1 to 16 whole numbers from 16 to ${MAX_MEDIA_WIDTH_PX}`
const hostList: Check = (v) =>
  Array.isArray(v) && v.every((h) => typeof h === 'string' && /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/i.test(h))
    ? undefined
    : "expected a list of bare host names (no scheme, port or path), such as ['media.example.com']"

const SITE_SHAPE: Shape = {
  baseUrl: siteOrigin,
  api: {
    baseUrl: apiUrl,
    headers,
    credentials: oneOf('include', 'omit', 'same-origin'),
    allowQuery: (v) =>
      typeof v === 'boolean' ? undefined : stringList(v) && 'expected true, false or a list of parameter names',
    proxyHeaders: headerList,
    proxyReqHeaders: headerList,
    endpoints: { initialData: endpoint, initialDataFallback: endpoint },
    timeoutMs: timerMs,
    maxResponseBytes: positiveInt,
  },
  i18n: { default: locale, locales: localeList },
  features: { contentPreview: boolean, initInitialData: boolean, i18nMiddleware: boolean, debug: boolean },
  preview: {
    queryParam: (v) =>
      typeof v === 'string' && /^[A-Za-z0-9_-]+$/.test(v) ? undefined : 'expected a query parameter name',
    allowedHosts: (v) =>
      Array.isArray(v) && v.every((h) => typeof h === 'string' && isAllowedHost(h))
        ? undefined
        : "expected a list of bare host names or IP addresses (no scheme, port or path), such as ['preview.example.com']",
  },
  tracking: {
    gtmId: (v) =>
      typeof v === 'string' && /^[A-Z0-9-]+$/i.test(v) ? undefined : "expected a container id such as 'GTM-ABC123'",
    consentHost: httpUrl,
  },
  build: {
    outDir: string,
    concurrency,
    maxPages: positiveInt,
    maxPageBytes: positiveInt,
    renderTimeoutMs: timerMs,
    redirectPages: boolean,
    keepBuilds,
    renderThreads,
  },
  publish: {
    webhooks,
    token: bearerToken,
    quietMs: timerMs,
    maxWaitMs: timerMs,
    reconcileMinutes,
    deployTimeoutMs,
    deploy: deployTarget,
  },
  media: { mode: mediaMode, hosts: hostList, widths, maxBytes: positiveInt, limitInputPixels: pixelLimit },
}

/** Checks `value` against `shape`; `alsoKnown` are the keys its caller checks (`sites`, `hostname`). */
function checkShape(
  value: unknown,
  shape: Shape,
  path: string,
  issues: ConfigIssue[],
  alsoKnown: readonly string[] = [],
): void {
  if (!isRecord(value)) {
    issues.push({ path: path || '(root)', message: 'expected an object' })
    return
  }
  for (const [key, child] of Object.entries(value)) {
    const keyPath = path ? `${path}.${key}` : key
    // own keys only: `constructor` or `toString` must find no rule, not Object's member
    const rule = ownValue(shape, key)
    if (rule === undefined)
      issues.push({
        path: keyPath,
        message: `unknown option (known: ${[...Object.keys(shape), ...alsoKnown].join(', ')})`,
      })
    else if (child === undefined) continue
    else if (typeof rule === 'function') {
      const message = rule(dense(child))
      if (message) issues.push({ path: keyPath, message })
    } else checkShape(child, rule, keyPath, issues)
  }
}

/** What a config file exports that is no object, for its message: `no default export`, `a function`, `a list`… */
const exported = (value: unknown): string =>
  value === undefined
    ? 'no default export'
    : value === null
      ? 'null'
      : Array.isArray(value)
        ? 'a list'
        : `a ${typeof value}`

/** Validates a whole user config; an empty list means it is valid. */
export function validateUserConfig(config: unknown): ConfigIssue[] {
  const issues: ConfigIssue[] = []
  if (!isRecord(config))
    return [
      {
        path: '(root)',
        message: `expected the config file to export an object, got ${exported(config)}`,
      },
    ]
  const { sites, ...top } = config
  checkShape(top, SITE_SHAPE, '', issues, ['sites'])
  if (sites !== undefined) {
    if (!Array.isArray(sites)) issues.push({ path: 'sites', message: 'expected a list of site objects' })
    else {
      // the site each host name belongs to: a request for it (or --site) picks one site, never two
      const owners = new Map<string, string>()
      for (const [i, site] of sites.entries()) {
        const path = `sites[${i}]`
        if (!isRecord(site)) {
          issues.push({ path, message: 'expected an object' })
          continue
        }
        const { hostname, ...rest } = site
        const message = hostnames(dense(hostname))
        if (message) issues.push({ path: `${path}.hostname`, message })
        else issues.push(...hostnamesTaken(hostname as string | string[], path, owners))
        checkShape(rest, SITE_SHAPE, path, issues, ['hostname'])
      }
    }
  }
  return issues
}

/**
 * A host name as sites are told apart by it: in lower case, without the root's dot of a fully-qualified name
 * (`Example.com.` is `example.com`). Example: `WWW.example.de.` -> `www.example.de`.
 */
export const hostKey = (host: string): string => host.replace(/(.)\.$/, '$1').toLowerCase()

/** A site's host names that an earlier site has already (hostKey: in any case, with the root's dot or not); records the others. */
function hostnamesTaken(hostname: string | string[], path: string, owners: Map<string, string>): ConfigIssue[] {
  const issues: ConfigIssue[] = []
  for (const host of Array.isArray(hostname) ? hostname : [hostname]) {
    const name = hostKey(host)
    const owner = owners.get(name)
    if (owner === undefined) owners.set(name, path)
    else if (owner !== path)
      issues.push({
        path: `${path}.hostname`,
        message: `'${host}' is also a hostname of ${owner}: a request for it would only ever reach one of them`,
      })
  }
  return issues
}

/** The CLI's flags that set options, checked with those options' rules; each issue names the flag. */
export function validateFlags(inline: {
  apiBaseUrl?: unknown
  outDir?: unknown
  concurrency?: unknown
  maxPages?: unknown
  maxPageBytes?: unknown
  media?: unknown
}): ConfigIssue[] {
  const flags: Array<[string, unknown, Check]> = [
    ['--api', inline.apiBaseUrl, apiUrl],
    ['--out', inline.outDir, string],
    ['--concurrency', inline.concurrency, concurrency],
    ['--max-pages', inline.maxPages, positiveInt],
    ['--max-page-bytes', inline.maxPageBytes, positiveInt],
    ['--media', inline.media, mediaMode],
  ]
  return flags.flatMap(([flag, value, check]) => {
    const message = value === undefined ? undefined : check(value)
    return message ? [{ path: flag, message }] : []
  })
}
