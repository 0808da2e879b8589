/** Escaping for markup the engine writes as text (HTML documents, redirect pages, sitemaps). */

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/**
 * Escapes text and attribute values of HTML and XML: `&`, `<`, `>`, `"`, `'`
 * (`&#39;` is valid in both). Example: `a<b & "c"` -> `a&lt;b &amp; &quot;c&quot;`.
 */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)
