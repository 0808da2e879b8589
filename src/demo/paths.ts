/**
 * Pure path rules of the demo API: the request URL parser and the locale of a path.
 * Nothing here touches the disk; file lookups go through an index (files.ts).
 */
import type { DemoLanguage } from './types.js'

export interface DemoUrl {
  /** The pathname as sent: `/de/%C3%BCber-uns/`. */
  rawPath: string
  /** The query string as sent, without `?`. */
  rawQuery: string
  /** Decoded once, no trailing slash (but `/`): `/de/über-uns`. */
  path: string
  query: Record<string, string>
}

export type DemoUrlResult = { ok: true; url: DemoUrl } | { ok: false; reason: string }

const ABSOLUTE_FORM_RE = /^https?:\/\//i
// NUL, control characters and backslashes never belong to a page or file path.
const FORBIDDEN_RE = /[\u0000-\u001f\u007f\\]/

/**
 * Parses a request target. Example: `/pl/o-nas/?type=834` ->
 * `{ rawPath: '/pl/o-nas/', path: '/pl/o-nas', query: { type: '834' } }`.
 * A malformed escape or a `.`/`..` segment (also when percent-encoded) is refused.
 */
export function parseDemoUrl(target: string): DemoUrlResult {
  let rest = target
  if (ABSOLUTE_FORM_RE.test(rest)) {
    try {
      const url = new URL(rest)
      rest = url.pathname + url.search
    } catch {
      return { ok: false, reason: 'malformed absolute URL' }
    }
  }
  const hashAt = rest.indexOf('#')
  if (hashAt >= 0) rest = rest.slice(0, hashAt)
  const queryAt = rest.indexOf('?')
  const rawPath = queryAt >= 0 ? rest.slice(0, queryAt) : rest
  const rawQuery = queryAt >= 0 ? rest.slice(queryAt + 1) : ''
  if (!rawPath.startsWith('/')) return { ok: false, reason: 'the path must start with /' }

  let decoded: string
  try {
    decoded = decodeURIComponent(rawPath)
  } catch {
    return { ok: false, reason: 'malformed percent-encoding' }
  }
  if (FORBIDDEN_RE.test(decoded)) return { ok: false, reason: 'forbidden character in path' }
  if (decoded.split('/').some((segment) => segment === '..' || segment === '.')) {
    return { ok: false, reason: 'dot segments are not allowed' }
  }
  const query: Record<string, string> = {}
  for (const [key, value] of new URLSearchParams(rawQuery)) query[key] = value
  return { ok: true, url: { rawPath, rawQuery, path: trimTrailingSlash(decoded), query } }
}

/** `/pl/` -> `/pl`, `/` stays `/`. */
export const trimTrailingSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') || '/' : path)

/** Locale prefix of a language without trailing slash: `/` -> ``, `/pl/` -> `/pl`. */
export const prefixOf = (language: DemoLanguage): string => trimTrailingSlash(language.base).replace(/^\/$/, '')

/** The language whose base path starts the path; the default (base `/`) otherwise. */
export function languageOfPath(path: string, languages: readonly DemoLanguage[]): DemoLanguage {
  const fallback = languages.find((language) => prefixOf(language) === '') ?? languages[0]
  if (!fallback) throw new Error('the demo site has no languages')
  for (const language of languages) {
    const prefix = prefixOf(language)
    if (prefix !== '' && (path === prefix || path.startsWith(`${prefix}/`))) return language
  }
  return fallback
}

/** Normalised page path from a language and a TYPO3 slug: (pl, `/o-nas`) -> `/pl/o-nas`, (pl, `/`) -> `/pl`. */
export const pagePath = (language: DemoLanguage, slug: string): string =>
  trimTrailingSlash(`${prefixOf(language)}${slug.startsWith('/') ? slug : `/${slug}`}`)
