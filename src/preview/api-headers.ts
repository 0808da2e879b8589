import type { ResolvedSite } from '../config/types.js'
import { ownValue } from '../shared/values.js'

/**
 * Header rules between the visitor, the preview server and the API: only the request
 * headers named in `api.proxyReqHeaders` go to the API, only the answer headers named in
 * `api.proxyHeaders` come back.
 */

// Connection-level headers: never forwarded, whatever the config names (undici refuses most of them anyway).
const NEVER_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'expect',
  'proxy-authorization',
  'proxy-connection',
])

/** Request headers for the API: exactly those named in `proxyReqHeaders`, and no others. */
export function toApiRequestHeaders(request: Request, api: ResolvedSite['api']): Record<string, string> {
  const names = new Set((api.proxyReqHeaders || []).map((name) => name.toLowerCase()))
  const out: Record<string, string> = {}
  for (const name of names) {
    const value = request.headers.get(name)
    if (value !== null && !NEVER_FORWARDED.has(name)) out[name] = value
  }
  return out
}

/**
 * A cache policy a preview answer may carry: a preview shows what only editors may see (a hidden page, a draft),
 * so whatever the API sent for its public page, no shared cache (a CDN, a proxy before preview) keeps it.
 * Example: `public, max-age=3600, s-maxage=600` -> `private, max-age=3600`; `no-store` stays as it is.
 */
function privateOnly(value: string): string {
  const directives = value
    .split(',')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && !/^(public|s-maxage\s*=.*)$/i.test(directive))
  // `no-store` alone already keeps every cache from it
  return directives.some((directive) => /^(private|no-store)$/i.test(directive))
    ? directives.join(', ')
    : ['private', ...directives].join(', ')
}

/**
 * Answer headers to copy onto the HTML response: those named in `proxyHeaders`,
 * from the API answers in order (a later answer wins, as in nuxt-typo3; `set-cookie` accumulates).
 * A `cache-control` is kept private (privateOnly).
 */
export function toProxiedResponseHeaders(
  answers: ReadonlyArray<Record<string, string> | undefined>,
  api: ResolvedSite['api'],
): Headers {
  const out = new Headers()
  if (!api.proxyHeaders) return out
  for (const name of api.proxyHeaders.map((n) => n.toLowerCase())) {
    if (NEVER_FORWARDED.has(name) || name === 'content-type') continue
    for (const answer of answers) {
      const value = answer && ownValue(answer, name)
      if (value === undefined) continue
      // Cookies of every answer are kept (the browser would have stored each); the API client joins
      // repeated `set-cookie` headers with a line break, which no header value holds (a cookie may hold a comma).
      if (name === 'set-cookie') for (const cookie of value.split('\n')) out.append(name, cookie)
      else out.set(name, name === 'cache-control' ? privateOnly(value) : value)
    }
  }
  return out
}
