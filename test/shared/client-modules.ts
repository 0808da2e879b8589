/**
 * What a page's client loader (src/render/document.ts `clientLoader`) loads: its module scripts,
 * imported in order, and the chunks it announces as modulepreloads with them.
 */
export interface ClientModules {
  scripts: string[]
  preloads: string[]
}

const LOADER_RE = /<script id="__SITE_LOADER__" type="module">([^<]*)<\/script>/
const LISTS_RE = /^const s=(\[[^\]]*\]),p=(\[[^\]]*\]),/

/** The lists of a loader's script text; empty lists when the text is no loader. */
export function loaderModulesOf(text: string): ClientModules {
  const match = LISTS_RE.exec(text)
  if (!match) return { scripts: [], preloads: [] }
  return { scripts: JSON.parse(match[1] as string), preloads: JSON.parse(match[2] as string) }
}

/** The loader's lists in a page's HTML; empty lists when the page loads no client. */
export const clientModulesOf = (html: string): ClientModules => loaderModulesOf(LOADER_RE.exec(html)?.[1] ?? '')
