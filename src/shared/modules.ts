/**
 * The engine's npm name and the module names a site project imports from it: templates import
 * RUNTIME_MODULE, a config file CONFIG_MODULE. The engine's bundlers resolve both to its own copies,
 * so a project's templates and the engine share one React and one context wherever the engine is
 * installed. No `node:` imports, no DOM globals.
 */

/** The engine's package name on npm (its command is `site`). */
export const ENGINE_PACKAGE = 'typo3-headless-site'
/** What templates import: hooks, components and types shared by server and browser. */
export const RUNTIME_MODULE = `${ENGINE_PACKAGE}/runtime`
/** What a config file imports: `defineConfig`. */
export const CONFIG_MODULE = `${ENGINE_PACKAGE}/config`

const escapeRe = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** Matches exactly RUNTIME_MODULE (an esbuild resolve filter). */
export const RUNTIME_MODULE_RE = new RegExp(`^${escapeRe(RUNTIME_MODULE)}$`)
