import { type ConfigIssue, errors } from '../errors.js'
import { isRecord } from '../shared/values.js'
import { DEFAULTS } from './defaults.js'
import type { InlineConfig, ResolvedSite, SiteEntry, SiteOptions, UserConfig } from './types.js'

/** Deep-merges `over` onto `base`: objects merge, everything else replaces. */
export function deepMerge<T>(base: T, over: unknown): T {
  if (!isRecord(base) || !isRecord(over)) return (over === undefined ? base : over) as T
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(over)) if (value !== undefined) out[key] = deepMerge(out[key], value)
  return out as T
}

const unique = <T>(list: readonly T[]): T[] => [...new Set(list)]

/** Fills every default of one site's options (pure). */
export function resolveSiteOptions(
  options: SiteOptions,
  hostnames: readonly string[],
): Omit<ResolvedSite, 'api'> & { api: Omit<ResolvedSite['api'], 'baseUrl'> & { baseUrl?: string } } {
  const merged = deepMerge(DEFAULTS as unknown as SiteOptions, options)
  const api = merged.api ?? {}
  return {
    hostnames,
    baseUrl: merged.baseUrl?.replace(/\/+$/, ''),
    api: {
      baseUrl: api.baseUrl?.replace(/\/+$/, ''),
      headers: api.headers ?? {},
      credentials: api.credentials ?? DEFAULTS.api.credentials,
      allowQuery: api.allowQuery ?? DEFAULTS.api.allowQuery,
      proxyHeaders: api.proxyHeaders ?? false,
      proxyReqHeaders: api.proxyReqHeaders ?? false,
      endpoints: {
        initialData: api.endpoints?.initialData ?? DEFAULTS.api.endpoints.initialData,
        initialDataFallback: api.endpoints?.initialDataFallback ?? DEFAULTS.api.endpoints.initialDataFallback,
      },
      timeoutMs: api.timeoutMs ?? DEFAULTS.api.timeoutMs,
      maxResponseBytes: api.maxResponseBytes ?? DEFAULTS.api.maxResponseBytes,
    },
    i18n: {
      default: merged.i18n?.default ?? DEFAULTS.i18n.default,
      locales: unique(merged.i18n?.locales ?? DEFAULTS.i18n.locales),
    },
    features: { ...DEFAULTS.features, ...merged.features },
    preview: { queryParam: merged.preview?.queryParam ?? DEFAULTS.preview.queryParam },
    tracking: { gtmId: merged.tracking?.gtmId, consentHost: merged.tracking?.consentHost?.replace(/\/+$/, '') },
    build: {
      outDir: merged.build?.outDir ?? DEFAULTS.build.outDir,
      concurrency: merged.build?.concurrency ?? DEFAULTS.build.concurrency,
    },
  }
}

/**
 * Turns a validated user config plus CLI flags into complete sites.
 * With `sites`, each site is deep-merged over the top-level options and its
 * locales are the union of both (as nuxt-typo3 does).
 */
export function resolveSites(user: UserConfig, inline: InlineConfig, file: string): ResolvedSite[] {
  const { sites, ...top } = user
  const entries: Array<{ options: SiteOptions; hostnames: string[]; path: string }> = sites?.length
    ? sites.map((site: SiteEntry, i) => {
        const { hostname, ...rest } = site
        const options = deepMerge(top, rest)
        options.i18n = {
          ...options.i18n,
          locales: unique([...(top.i18n?.locales ?? []), ...(rest.i18n?.locales ?? [])]),
        }
        if (!options.i18n.locales?.length) delete options.i18n.locales
        return {
          options,
          hostnames: (Array.isArray(hostname) ? hostname : [hostname]).map((h) => h.toLowerCase()),
          path: `sites[${i}].`,
        }
      })
    : [{ options: top, hostnames: [], path: '' }]

  const issues: ConfigIssue[] = []
  const resolved = entries.map(({ options, hostnames, path }) => {
    const site = resolveSiteOptions(options, hostnames)
    const baseUrl = inline.apiBaseUrl?.replace(/\/+$/, '') ?? site.api.baseUrl
    if (!baseUrl && !inline.apiOptional)
      issues.push({
        path: `${path}api.baseUrl`,
        message: 'required: the origin of the content API (or pass --api URL)',
      })
    if (!site.i18n.locales.includes(site.i18n.default))
      issues.push({
        path: `${path}i18n.default`,
        message: `'${site.i18n.default}' is not one of i18n.locales (${site.i18n.locales.join(', ')})`,
      })
    return {
      ...site,
      api: { ...site.api, baseUrl: baseUrl ?? '' },
      build: {
        outDir: inline.outDir ?? site.build.outDir,
        concurrency: inline.concurrency ?? site.build.concurrency,
      },
    } satisfies ResolvedSite
  })
  if (issues.length) throw errors.configInvalid(file, issues)
  return resolved
}

/** Bare host name of a `Host` header or URL: scheme, port and path removed, lower-cased. */
export function toBareHostname(host: string): string {
  return host
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
}

/**
 * Picks the site for a host (`--site`, or a request's `Host` header).
 * Without a host there must be exactly one site.
 */
export function selectSite(sites: readonly ResolvedSite[], host?: string): ResolvedSite {
  const known = sites.flatMap((s) => s.hostnames)
  if (host === undefined || host === '') {
    if (sites.length === 1) return sites[0]!
    throw errors.siteAmbiguous(known)
  }
  const bare = toBareHostname(host)
  const match =
    sites.find((s) => s.hostnames.includes(bare)) ??
    (sites.length === 1 && sites[0]!.hostnames.length === 0 ? sites[0] : undefined)
  if (!match) throw errors.hostnameNotFound(bare, known)
  return match
}
