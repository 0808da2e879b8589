/**
 * Query filtering of page requests (`api.allowQuery`): `true` passes the path
 * untouched, `false` drops every parameter but `type`, a list keeps the named
 * parameters; `type` always passes (the site's specification requires it; nuxt-typo3 drops it with `false`).
 * Example: filterQuery('/a?type=1&x=2&utm=3', ['x']) -> '/a?type=1&x=2'.
 */
export function filterQuery(pathWithQuery: string, allowQuery: boolean | readonly string[]): string {
  const queryAt = pathWithQuery.indexOf('?')
  const pathname = queryAt >= 0 ? pathWithQuery.slice(0, queryAt) : pathWithQuery
  if (allowQuery === true) return pathWithQuery
  if (queryAt < 0) return pathname
  const params = new URLSearchParams(pathWithQuery.slice(queryAt + 1))
  const allowed = new Set(Array.isArray(allowQuery) ? allowQuery : [])
  for (const key of [...params.keys()]) if (key !== 'type' && !allowed.has(key)) params.delete(key)
  const search = params.toString()
  return search ? `${pathname}?${search}` : pathname
}

/**
 * The URL of an API request: `path` appended to `api.baseUrl`, and the base URL's own query (an API key,
 * for one) kept on every request, ahead of the path's. Example: requestUrl('https://cms.example.com/api?key=k',
 * '/pl?type=834') -> 'https://cms.example.com/api/pl?key=k&type=834'.
 */
export function requestUrl(baseUrl: string, path: string): string {
  const baseQueryAt = baseUrl.indexOf('?')
  if (baseQueryAt < 0) return `${baseUrl}${path}`
  const base = baseUrl.slice(0, baseQueryAt).replace(/\/+$/, '')
  const queryAt = path.indexOf('?')
  const query = [baseUrl.slice(baseQueryAt + 1), queryAt < 0 ? '' : path.slice(queryAt + 1)].filter(Boolean).join('&')
  const pathname = queryAt < 0 ? path : path.slice(0, queryAt)
  return query ? `${base}${pathname}?${query}` : `${base}${pathname}`
}
