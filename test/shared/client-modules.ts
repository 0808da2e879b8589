/**
 * What a page's client loader (src/render/document.ts `clientLoader`) loads: its module scripts,
 * imported in order, and the chunks it announces as modulepreloads with them.
 */
export interface ClientModules {
  scripts: string[]
  preloads: string[]
}

const LOADER_RE = /<script id="__SITE_LOADER__" type="module">const s=(\[[^\]]*\]),p=(\[[^\]]*\]),/

/** The loader's lists in a page's HTML; empty lists when the page loads no client. */
export function clientModulesOf(html: string): ClientModules {
  const match = LOADER_RE.exec(html)
  if (!match) return { scripts: [], preloads: [] }
  return { scripts: JSON.parse(match[1] as string), preloads: JSON.parse(match[2] as string) }
}
