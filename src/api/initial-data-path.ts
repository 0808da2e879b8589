import { type LocaleOptions, localeHome, withLocale } from '../shared/url.js'

/**
 * The path initial data is requested at, for one endpoint value:
 * - `?type=834` (query form): the route's pathname + route query, endpoint params override;
 * - `/?type=834` (path form), no route query: the endpoint path with the locale prefix;
 * - path form, a route query key containing `[controller]` (Extbase arguments): the route path and query as they are;
 * - path form, other route query: the prefixed endpoint path, endpoint query merged with the route query (route wins).
 * Without a route (a build asks a locale's initial data once), the route is the locale's home page.
 * Example: ('/?type=834', 'pl', '/pl/o-nas') -> '/pl?type=834'; ('?type=834', 'pl') -> '/pl?type=834'.
 */
export function toInitialDataPath(options: {
  endpoint: string
  locale: string
  i18n: LocaleOptions
  routePath?: string
  routeQuery?: URLSearchParams
}): string {
  const { endpoint, locale, i18n } = options
  const routePath = options.routePath ?? localeHome(locale, i18n)
  const routeQuery = options.routeQuery ?? new URLSearchParams()
  const queryAt = endpoint.indexOf('?')
  const endpointPath = queryAt >= 0 ? endpoint.slice(0, queryAt) : endpoint
  const endpointQuery = new URLSearchParams(queryAt >= 0 ? endpoint.slice(queryAt + 1) : '')
  const join = (path: string, query: URLSearchParams) => (query.size ? `${path}?${query}` : path)

  if (endpoint.startsWith('?')) {
    const merged = new URLSearchParams(routeQuery)
    for (const [key, value] of endpointQuery) merged.set(key, value)
    return join(routePath.replace(/(.)\/+$/, '$1'), merged)
  }
  const prefixed = withLocale(endpointPath || '/', locale, i18n).replace(/(.)\/+$/, '$1')
  if (routeQuery.size === 0) return join(prefixed, endpointQuery)
  if ([...routeQuery.keys()].some((key) => key.includes('[controller]'))) return join(routePath, routeQuery)
  const merged = new URLSearchParams(endpointQuery)
  for (const [key, value] of routeQuery) merged.set(key, value)
  return join(prefixed, merged)
}
