/**
 * Query filtering of page requests (contract 3.1): `true` passes the path
 * untouched, `false` drops every parameter (nuxt-typo3 does the same), a list
 * keeps the named parameters, and with a list `type` always passes.
 * Example: filterQuery('/a?type=1&x=2&utm=3', ['x']) -> '/a?type=1&x=2'.
 */
export function filterQuery(pathWithQuery: string, allowQuery: boolean | readonly string[]): string {
  const queryAt = pathWithQuery.indexOf('?')
  const pathname = queryAt >= 0 ? pathWithQuery.slice(0, queryAt) : pathWithQuery
  if (allowQuery === true) return pathWithQuery
  if (queryAt < 0 || allowQuery === false) return pathname
  const params = new URLSearchParams(pathWithQuery.slice(queryAt + 1))
  const allowed = new Set(Array.isArray(allowQuery) ? allowQuery : [])
  for (const key of [...params.keys()]) if (key !== 'type' && !allowed.has(key)) params.delete(key)
  const search = params.toString()
  return search ? `${pathname}?${search}` : pathname
}
