/**
 * Pure: what a redirect record (docs/api-contract.md) becomes in a static output besides its
 * payload (src/render/payload.ts): a line of `_redirects` and, with `build.redirectPages`,
 * a small HTML page that redirects (a script, a meta refresh without it, canonical, a plain link).
 *
 * The rules carry no force flag (`301!`): Cloudflare Pages refuses the whole line for it, and
 * applies its rules before any file anyway. Netlify serves an existing file instead of an
 * unforced rule, so by default no page is written at an old path: both hosts answer 301.
 */

import { escapeHtml } from '../../shared/escape.js'
import type { BuildRedirect } from '../types.js'

/**
 * The redirect page's script: to its link's target, with the visitor's query and #fragment where the target has
 * none, as a host's 301 keeps them (a meta refresh drops both: a campaign link to an old path lost its UTM
 * parameters). The same text on every page, so that a Content-Security-Policy allows it by one hash (docs/ci.md).
 */
export const REDIRECT_SCRIPT =
  'var u=new URL(document.links[0].href);if(!u.search)u.search=location.search;if(!u.hash)u.hash=location.hash;location.replace(u.href)'

/**
 * The redirect page. `to` is a checked target (see checkRedirectTarget);
 * `canonical` is its absolute form when the site has a `baseUrl`. Its words are English in every locale.
 */
export function renderRedirectHtml(options: { to: string; canonical: string }): string {
  const to = escapeHtml(options.to)
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="robots" content="noindex">',
    `<meta http-equiv="refresh" content="0; url=${to}">`,
    `<link rel="canonical" href="${escapeHtml(options.canonical)}">`,
    `<title>Redirecting to ${to}</title>`,
    '</head>',
    `<body><p>Redirecting to <a href="${to}">${to}</a></p><script>${REDIRECT_SCRIPT}</script></body>`,
    '</html>',
    '',
  ].join('\n')
}

/** The comment line before the project's own rules in `_redirects`. */
const OWN_REDIRECTS_HEADER = '# public/_redirects'

/**
 * `_redirects` (Netlify / Cloudflare Pages format): `from to status`, one per line, sorted by `from`;
 * then the project's own rules (`public/_redirects`) as they are, after a comment line. The build's
 * rules name exact paths and come first: both hosts apply the first rule that matches.
 */
export function renderRedirectsFile(redirects: readonly BuildRedirect[], own?: string): string {
  const lines = [...redirects]
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
    .map((r) => `${r.from} ${r.to.replace(/\s/g, encodeURIComponent)} ${r.statusCode}`)
  if (own !== undefined && own.trim() !== '') lines.push(OWN_REDIRECTS_HEADER, own.replace(/\n*$/, ''))
  return lines.length ? `${lines.join('\n')}\n` : ''
}

/** How many redirect loops a build's note names. */
const LOOPS_NAMED = 3

/** The path a host matches a rule's target by: no query or fragment, no trailing slash, percent-decoded. */
function matchedPath(path: string): string {
  const bare = path.replace(/[?#].*$/s, '')
  const trimmed = bare.length > 1 ? bare.replace(/\/+$/, '') : bare
  try {
    return decodeURI(trimmed)
  } catch {
    return trimmed
  }
}

/**
 * The build's redirects that go round in a loop (`/a` to `/b`, `/b` back to `/a`), as one note, or none: a host
 * (and a browser) gives up after some hops, so a visitor of any of their paths gets an error instead of a page.
 * Example: [/a -> /b, /b -> /a, /c -> /a] -> one note naming `/a -> /b -> /a`.
 */
export function checkRedirectLoops(redirects: readonly BuildRedirect[]): string[] {
  const next = new Map<string, string>()
  for (const { from, to } of redirects)
    if (to.startsWith('/') && !to.startsWith('//')) next.set(matchedPath(from), matchedPath(to))
  const loops: string[][] = []
  // each path is walked once: `walked` holds the paths of earlier walks, whose loops are already found
  const walked = new Set<string>()
  for (const start of next.keys()) {
    const chain: string[] = []
    let path: string | undefined = start
    while (path !== undefined && !walked.has(path)) {
      walked.add(path)
      chain.push(path)
      path = next.get(path)
    }
    const at = path === undefined ? -1 : chain.indexOf(path)
    if (at >= 0) loops.push([...chain.slice(at), chain[at]!])
  }
  if (!loops.length) return []
  const named = loops
    .slice(0, LOOPS_NAMED)
    .map((loop) => loop.join(' -> '))
    .join('; ')
  return [
    `_redirects: ${loops.length} redirect loop(s) lead to no page (${named}${loops.length > LOOPS_NAMED ? '; …' : ''}); visitors of these paths get an error: change one redirect of each loop in the CMS`,
  ]
}

/** Cloudflare Pages' limits on `_redirects`: rules past them, and longer lines, are ignored there. */
const CLOUDFLARE_REDIRECT_LIMITS = { staticRules: 2_000, dynamicRules: 100, lineChars: 1_000 } as const

// A splat or a placeholder makes a rule dynamic; the build's own `from` paths are percent-encoded and never are.
const DYNAMIC_FROM_RE = /\*|\/:/

/**
 * What Cloudflare Pages would leave out of a `_redirects` file, one warning per limit passed; []
 * when it applies every rule. Example: 2,100 static rules -> one warning naming the 100 ignored.
 */
export function checkCloudflareLimits(file: string): string[] {
  const { lineChars, staticRules, dynamicRules } = CLOUDFLARE_REDIRECT_LIMITS
  const rules = file.split('\n').filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
  const fromOf = (line: string): string => line.trim().split(/\s/, 1)[0]!
  const warnings: string[] = []
  const tooLong = rules.filter((line) => line.length > lineChars)
  if (tooLong.length > 0)
    warnings.push(
      `_redirects: ${tooLong.length} rule(s) longer than Cloudflare Pages' ${lineChars.toLocaleString('en-US')} characters are ignored there (first: ${fromOf(tooLong[0]!).slice(0, 80)}); those old paths answer 404 on Cloudflare Pages`,
    )
  const kept = rules.filter((line) => line.length <= lineChars)
  const dynamic = kept.filter((line) => DYNAMIC_FROM_RE.test(fromOf(line)))
  const groups = [
    { kind: 'static', limit: staticRules, rules: kept.filter((line) => !DYNAMIC_FROM_RE.test(fromOf(line))) },
    { kind: 'dynamic', limit: dynamicRules, rules: dynamic },
  ]
  const number = (n: number) => n.toLocaleString('en-US')
  for (const { kind, limit, rules: group } of groups) {
    if (group.length <= limit) continue
    warnings.push(
      `_redirects: ${number(group.length)} ${kind} rules, over Cloudflare Pages' limit of ${number(limit)}: Cloudflare applies the first ${number(limit)} and ignores the other ${number(group.length - limit)} (from ${fromOf(group[limit]!)} on, in file order), which answer 404 there; Netlify and \`site serve\` apply them all`,
    )
  }
  return warnings
}
