/**
 * What of a site's API settings may never reach a log line, a CI annotation or a step summary:
 * the userinfo and query values of `api.baseUrl` and the values of `api.headers`. A CI log is read
 * by whoever can read the repository; its lines name the API by its origin only. The redaction itself is
 * `redactSecrets` (src/errors.ts), which the CLI applies to every error it prints.
 */
import { redactSecrets } from '../errors.js'
import type { ResolvedSite } from './types.js'

/** Shorter values are not redacted as text: `1` or `en` would blank out half a message. */
const MIN_SECRET_CHARS = 4

/** `https://user:pw@cms.example.com/api?token=x` -> `https://cms.example.com`; '' when it is no URL. */
export function toApiOrigin(baseUrl: string): string {
  try {
    const { origin } = new URL(baseUrl)
    return origin === 'null' ? '' : origin
  } catch {
    return ''
  }
}

const withEncoded = (value: string): string[] => [value, encodeURIComponent(value)]

/** The texts to hide in whatever a run of this site prints: its API password, query values and header values. */
export function siteSecrets(site: Pick<ResolvedSite, 'api'>): string[] {
  const found: string[] = []
  try {
    const url = new URL(site.api.baseUrl)
    found.push(decodeURIComponent(url.password), url.password)
    for (const value of url.searchParams.values()) found.push(...withEncoded(value))
  } catch {
    // no URL, nothing in it to hide
  }
  for (const value of Object.values(site.api.headers)) found.push(value, ...value.split(/\s+/).slice(1))
  // `Bearer abc…`: the token after the scheme too. Longest first: a whole value goes before the token in it.
  return [...new Set(found.filter((s) => s.length >= MIN_SECRET_CHARS))].sort((a, b) => b.length - a.length)
}

/** What hides this site's secrets (siteSecrets) and any URL's userinfo in a text it prints. */
export function siteRedactor(site: Pick<ResolvedSite, 'api'>): (text: string) => string {
  const secrets = siteSecrets(site)
  return (text) => redactSecrets(text, secrets)
}
