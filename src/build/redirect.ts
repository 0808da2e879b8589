/**
 * Pure: what a redirect record (contract 3.5) becomes in a static output besides its
 * payload (src/render/payload.ts): a small HTML page that redirects (meta refresh,
 * canonical, a plain link) and a line of `_redirects`.
 */

import { escapeHtml } from '../shared/escape.js'
import type { BuildRedirect } from './types.js'

/**
 * The redirect page. `to` is a checked target (see checkRedirectTarget);
 * `canonical` is its absolute form when the site has a `baseUrl`.
 */
export function renderRedirectHtml(options: { to: string; canonical: string; lang: string }): string {
  const to = escapeHtml(options.to)
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(options.lang)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="robots" content="noindex">',
    `<meta http-equiv="refresh" content="0; url=${to}">`,
    `<link rel="canonical" href="${escapeHtml(options.canonical)}">`,
    `<title>Redirecting to ${to}</title>`,
    '</head>',
    `<body><p>Redirecting to <a href="${to}">${to}</a></p></body>`,
    '</html>',
    '',
  ].join('\n')
}

/** `_redirects` (Netlify / Cloudflare Pages format): `from to status`, one per line, sorted by `from`. */
export function renderRedirectsFile(redirects: readonly BuildRedirect[]): string {
  const lines = [...redirects]
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))
    .map((r) => `${r.from} ${r.to.replace(/\s/g, encodeURIComponent)} ${r.statusCode}`)
  return lines.length ? `${lines.join('\n')}\n` : ''
}
