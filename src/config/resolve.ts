import { isIPv6 } from 'node:net'
import { posix, relative, resolve } from 'node:path'
import { parseDeploySpec } from '../deploy/target-spec.js'
import type { OtherSite } from '../deploy/targets/types.js'
import { type ConfigIssue, errors } from '../errors.js'
import { isRecord } from '../shared/values.js'
import { DEFAULTS, siteOutDir } from './defaults.js'
import type {
  InlineConfig,
  ResolvedConfig,
  ResolvedPublish,
  ResolvedSite,
  SiteEntry,
  SiteOptions,
  UserConfig,
} from './types.js'
import { hostKey, validateFlags } from './validate.js'

/** Deep-merges `over` onto `base`: objects merge, everything else replaces. */
function deepMerge<T>(base: T, over: unknown): T {
  if (!isRecord(base) || !isRecord(over)) return (over === undefined ? base : over) as T
  const out: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(over)) if (value !== undefined) out[key] = deepMerge(out[key], value)
  return out as T
}

const unique = <T>(list: readonly T[]): T[] => [...new Set(list)]

type Filled = typeof DEFAULTS &
  Omit<SiteOptions, keyof typeof DEFAULTS> & {
    [K in keyof typeof DEFAULTS]: NonNullable<SiteOptions[K]> & (typeof DEFAULTS)[K]
  }

const trimSlashes = (url: string | undefined): string | undefined => url?.replace(/\/+$/, '')
/**
 * The site's origin as a URL carries it (validate.ts refuses anything more): the host lower case
 * and in IDNA form, no default port. `https://Bücher.Example:443/` -> `https://xn--bcher-kva.example`.
 */
const toOrigin = (url: string | undefined): string | undefined =>
  url !== undefined && URL.canParse(url) ? new URL(url).origin : trimSlashes(url)

/**
 * Fills every default of one site's options (pure): the options deep-merged over DEFAULTS, the
 * only place defaults are filled; URLs lose trailing slashes, locales are listed once.
 */
export function resolveSiteOptions(options: SiteOptions, hostnames: readonly string[]): ResolvedSite {
  const merged = deepMerge(DEFAULTS, options) as Filled
  const { api, i18n, tracking } = merged
  return {
    hostnames,
    baseUrl: toOrigin(merged.baseUrl),
    api: { ...api, baseUrl: trimSlashes(api.baseUrl) ?? '' },
    i18n: { default: i18n.default, locales: unique(i18n.locales) },
    features: merged.features,
    preview: {
      queryParam: merged.preview.queryParam,
      allowedHosts: merged.preview.allowedHosts.map(toAllowedHost),
    },
    tracking: { gtmId: tracking.gtmId, consentHost: trimSlashes(tracking.consentHost) },
    build: merged.build,
    media: {
      ...merged.media,
      hosts: merged.media.hosts.map((h) => h.toLowerCase()),
      widths: [...new Set(merged.media.widths)].sort((a, b) => a - b),
    },
  }
}

/** The CLI's flags as config options: `--api`, `--out`, `--concurrency`, `--max-pages` and `--max-page-bytes` override the file's. */
const flagOptions = (inline: InlineConfig): SiteOptions => ({
  api: { baseUrl: inline.apiBaseUrl },
  build: {
    outDir: inline.outDir,
    concurrency: inline.concurrency,
    maxPages: inline.maxPages,
    maxPageBytes: inline.maxPageBytes,
  },
  media: { mode: inline.media },
  ...(inline.debug ? { features: { debug: true } } : {}),
})

/** `outDirFrom`: what sets a site's `build.outDir` when its own key does not, for checkOutDirs' message. */
type SiteLayer = {
  options: SiteOptions
  hostnames: string[]
  path: string
  outDirFrom?: string
  /** Whether the site's entry sets `baseUrl` itself, rather than taking the top-level one. */
  ownBaseUrl?: boolean
}

/**
 * Each site's options as the file writes them: with `sites`, each site deep-merged over the top-level
 * options (locales the union of both lists), and of several sites each with an output folder of its own.
 */
function siteLayers(user: UserConfig): SiteLayer[] {
  const { sites, ...top } = user
  return sites?.length
    ? sites.map((site: SiteEntry, i) => {
        const { hostname, ...rest } = site
        const options = deepMerge(top, rest)
        options.i18n = {
          ...options.i18n,
          locales: unique([...(top.i18n?.locales ?? []), ...(rest.i18n?.locales ?? [])]),
        }
        if (!options.i18n.locales?.length) delete options.i18n.locales
        const hostnames = (Array.isArray(hostname) ? hostname : [hostname]).map(toBareHostname)
        // Of several sites, each gets a folder of its own unless the file names one (no two may share one: checkOutDirs).
        if (sites.length > 1 && options.build?.outDir === undefined)
          options.build = { ...options.build, outDir: siteOutDir(hostnames[0]!) }
        const outDirFrom =
          rest.build?.outDir !== undefined
            ? undefined
            : top.build?.outDir !== undefined
              ? 'the top-level build.outDir'
              : 'the default: the file sets none'
        const ownBaseUrl = rest.baseUrl !== undefined
        return { options, hostnames, path: `sites[${i}].`, ownBaseUrl, ...(outDirFrom ? { outDirFrom } : {}) }
      })
    : [{ options: top, hostnames: [], path: '' }]
}

/**
 * Turns a validated user config plus CLI flags into complete sites (the flags are validated
 * here, with the rules of the options they set). With `sites`, each site is deep-merged over
 * the top-level options and its locales are the union of both lists as the file writes them (as nuxt-typo3
 * does; the default locales are not added). Of several sites, each builds into a folder of its own.
 */
export function resolveSites(user: UserConfig, inline: InlineConfig, file: string): ResolvedSite[] {
  const flagIssues = validateFlags(inline)
  if (flagIssues.length) throw errors.configInvalid('the command line', flagIssues)
  const entries = siteLayers(user)
  const issues: ConfigIssue[] = [...checkOutDirs(entries, resolve(inline.root ?? '.'))]
  const resolved = entries.map(({ options, hostnames, path }) => {
    const site = resolveSiteOptions(deepMerge(options, flagOptions(inline)), hostnames)
    if (!site.api.baseUrl && !inline.apiOptional)
      issues.push({
        path: `${path}api.baseUrl`,
        message: 'required: the origin of the content API (or pass --api URL)',
      })
    if (!site.i18n.locales.includes(site.i18n.default))
      issues.push({
        path: `${path}i18n.default`,
        message: `'${site.i18n.default}' is not one of i18n.locales (${site.i18n.locales.join(', ')})`,
      })
    return site
  })
  issues.push(...checkBaseUrls(entries, resolved))
  if (issues.length) throw errors.configInvalid(file, issues)
  return resolved
}

/**
 * Several sites with one `baseUrl` (a top-level one that no site sets its own over, say): each would write its
 * pages, canonical links and sitemap at the other's origin.
 */
function checkBaseUrls(entries: readonly SiteLayer[], sites: readonly ResolvedSite[]): ConfigIssue[] {
  const issues: ConfigIssue[] = []
  sites.forEach((site, i) => {
    const first = sites.findIndex((other) => other.baseUrl === site.baseUrl)
    if (!site.baseUrl || first === i) return
    const [entry, firstEntry] = [entries[i]!, entries[first]!]
    const inherited = entry.ownBaseUrl === false ? ' (the top-level baseUrl)' : ''
    issues.push({
      path: `${entry.path}baseUrl`,
      message: `'${site.baseUrl}'${inherited} is also the baseUrl of ${firstEntry.path.slice(0, -1)} (${firstEntry.hostnames[0]}): each site needs an origin of its own`,
    })
  })
  return issues
}

const normalDir = (dir: string): string => posix.normalize(dir.replace(/\\/g, '/')).replace(/(.)\/+$/, '$1')

/** True when folder `inner` lies inside folder `outer` (both normalDir'd, as the file writes them). */
const isInside = (inner: string, outer: string): boolean =>
  outer === '.' ? !inner.startsWith('/') && inner !== '..' && !inner.startsWith('../') : inner.startsWith(`${outer}/`)

/**
 * Several sites with one output folder, or one inside another's (from the file; `--out` is one run's): a
 * build replaces its whole folder, so each would replace or remove the other's output. Folders are compared
 * relative to the project `root`, so that an absolute name and a relative one of the same folder clash.
 */
function checkOutDirs(entries: readonly SiteLayer[], root: string): ConfigIssue[] {
  const seen: Array<{ dir: string; hostnames: string[]; path: string }> = []
  const issues: ConfigIssue[] = []
  for (const { options, hostnames, path, outDirFrom } of entries) {
    if (!path || options.build?.outDir === undefined) continue
    const dir = normalDir(relative(root, resolve(root, options.build.outDir)))
    const clash = (first: { dir: string }) =>
      first.dir === dir ? 'is also' : isInside(dir, first.dir) ? 'is inside' : isInside(first.dir, dir) ? 'holds' : ''
    const first = seen.find((site) => clash(site) !== '')
    if (first)
      issues.push({
        path: `${path}build.outDir`,
        message: `'${options.build.outDir}'${outDirFrom ? ` (${outDirFrom})` : ''} ${clash(first)} the output folder of ${first.path.slice(0, -1)} (${first.hostnames[0]}): each site needs a folder of its own`,
      })
    else seen.push({ dir, hostnames, path })
  }
  return issues
}

/**
 * An entry of `preview.allowedHosts` as a request's `Host` names it: lower case, an IPv6 address without its
 * brackets and in the short form browsers send (`[FD00:0::5]` -> `fd00::5`).
 */
function toAllowedHost(host: string): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase()
  return isIPv6(bare) ? new URL(`http://[${bare}]`).hostname.slice(1, -1) : bare
}

/** Bare host name of a `Host` header or URL: scheme, port and path removed, lower-cased. */
export function toBareHostname(host: string): string {
  return hostKey(
    host
      .trim()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
      .replace(/[/?#].*$/, '')
      .replace(/:\d+$/, '')
      .replace(/^\[(.*)\]$/, '$1'),
  )
}

const IPV4_LOOPBACK_RE = /^127(?:\.\d{1,3}){3}$/

/**
 * `localhost`, `*.localhost`, 127.0.0.0/8 and `::1`: names that only ever mean this machine. `bare` has lost the
 * root's dot a name may end in (`localhost.`, `editor.localhost.`: the fully-qualified form a browser sends as
 * typed; toBareHostname), one dot and only after the name: `localhost.evil.com` and `evil.com.` are other
 * machines' names.
 */
export function isLoopbackHost(bare: string): boolean {
  return bare === 'localhost' || bare.endsWith('.localhost') || IPV4_LOOPBACK_RE.test(bare) || bare === '::1'
}

/** The hosts a site answers to: its `hostname`s, or for the one site of a config without `sites` the host of its `baseUrl`. */
const hostsOf = (site: ResolvedSite): readonly string[] =>
  site.hostnames.length || !site.baseUrl ? site.hostnames : [toBareHostname(site.baseUrl)]

/**
 * Picks the site for a host (`--site`, or a request's `Host` header).
 * Without a host there must be exactly one site; a host must be one a site answers to (hostsOf), also
 * when there is one site: a `--site` naming another host is a mistake, not a choice to ignore.
 */
export function selectSite(sites: readonly ResolvedSite[], host?: string): ResolvedSite {
  const known = sites.flatMap(hostsOf)
  if (host === undefined || host === '') {
    if (sites.length === 1) return sites[0]!
    throw errors.siteAmbiguous(known)
  }
  const bare = toBareHostname(host)
  const match = sites.find((s) => hostsOf(s).includes(bare))
  if (!match) throw errors.hostnameNotFound(bare, known)
  return match
}

/**
 * The publish options of each site of a validated user config (in the order of resolveSites), defaults
 * filled; a quiet period longer than the longest wait is an issue.
 */
export function resolvePublish(user: UserConfig, file: string): ResolvedPublish[] {
  const issues: ConfigIssue[] = []
  const places: Array<{ place: DeployPlace; hostnames: string[]; path: string }> = []
  const resolved = siteLayers(user).map(({ options, hostnames, path }) => {
    const publish = deepMerge(DEFAULTS.publish, options.publish) as ResolvedPublish
    if (publish.quietMs > publish.maxWaitMs)
      issues.push({
        path: `${path}publish.quietMs`,
        message: `${publish.quietMs} is longer than publish.maxWaitMs (${publish.maxWaitMs}): a publish would never wait for quiet`,
      })
    const place = path ? deployPlaceOf(publish.deploy) : undefined
    const first = place && places.find((other) => placesClash(place, other.place))
    if (first)
      issues.push({
        path: `${path}publish.deploy`,
        message: `'${publish.deploy}' is also where ${first.path.slice(0, -1)} (${first.hostnames[0]}) deploys to: each site's deploy would replace or delete the other's files`,
      })
    else if (place) places.push({ place, hostnames, path })
    return publish
  })
  if (issues.length) throw errors.configInvalid(file, issues)
  return resolved
}

/**
 * Where a `dir:` or `s3:` deploy target puts a site's files: a folder (relative to the working folder, where the
 * deploy takes it from), or a bucket and a key prefix ('.': none).
 */
type DeployPlace = { root: string; dir: string }

/** The place of a deploy target; undefined for none and for a `command:` (given each site's own output folder). */
function deployPlaceOf(deploy: string | undefined): DeployPlace | undefined {
  const spec = deploy === undefined ? undefined : parseDeploySpec(deploy)
  if (spec === undefined || 'error' in spec || spec.kind === 'command') return undefined
  return spec.kind === 'dir'
    ? { root: 'dir:', dir: normalDir(relative('.', spec.path)) }
    : { root: `s3://${spec.bucket}`, dir: spec.prefix || '.' }
}

/** Two places where one deploy would replace the other's files: the same folder or prefix, or one inside the other. */
const placesClash = (a: DeployPlace, b: DeployPlace): boolean =>
  a.root === b.root && (a.dir === b.dir || isInside(a.dir, b.dir) || isInside(b.dir, a.dir))

/** The publish options of `site` (one of `config.sites`); the defaults for a config made without them. */
export const publishOptionsOf = (config: ResolvedConfig, site: ResolvedSite): ResolvedPublish =>
  config.publish?.[config.sites.indexOf(site)] ?? (DEFAULTS.publish as ResolvedPublish)

/** The site's output folder, absolute: `build.outDir` is relative to the project's root. */
export const outDirOf = (root: string, site: ResolvedSite): string => resolve(root, site.build.outDir)

/** The config's sites but `site`, each by its first host name, with its output folder (a deploy keeps out of them). */
export const otherSitesOf = (config: ResolvedConfig, site: ResolvedSite): OtherSite[] =>
  config.sites
    .filter((other) => other !== site)
    .map((other) => ({ host: other.hostnames[0] ?? '', outDir: outDirOf(config.root, other) }))
