/**
 * The `_redirects` file a build writes for static hosts: one rule a line,
 * `from to [status]` (status 301 when left out), `#` comments. A `from` ending
 * in `/*` matches everything below it and `:splat` in `to` takes the rest.
 * Example: `/old /new 301`, `/blog/* /news/:splat 302`.
 */
export interface RedirectRule {
  from: string
  to: string
  status: number
}

const trimSlash = (path: string): string => (path.length > 1 ? path.replace(/\/+$/, '') : path)

export function parseRedirects(text: string): RedirectRule[] {
  const rules: RedirectRule[] = []
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim()
    if (trimmed === '' || trimmed.startsWith('#')) continue
    const [from, to, code] = trimmed.split(/\s+/)
    if (!from?.startsWith('/') || !to) continue
    const status = code === undefined ? 301 : Number.parseInt(code, 10)
    if (!(status >= 300 && status < 400)) continue
    rules.push({ from: from.endsWith('/*') ? from : trimSlash(from), to, status })
  }
  return rules
}

/** The first rule matching a request path, with its target filled in. */
export function matchRedirect(
  rules: readonly RedirectRule[],
  pathname: string,
): { to: string; status: number } | undefined {
  const path = trimSlash(pathname)
  for (const rule of rules) {
    if (rule.from.endsWith('/*')) {
      const base = rule.from.slice(0, -2)
      if (path === base || path.startsWith(`${base}/`)) {
        const splat = path.slice(base.length + 1)
        return { to: rule.to.replace(':splat', splat), status: rule.status }
      }
    } else if (rule.from === path) return { to: rule.to, status: rule.status }
  }
  return undefined
}
