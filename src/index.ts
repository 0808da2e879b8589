/**
 * The programmatic API of `site`: what the CLI calls, for scripts and tests. The CLI enters
 * the engine here only. The render core has its own entry, `typo3-headless-site/render`; templates import
 * `typo3-headless-site/runtime`; a config file imports `typo3-headless-site/config`.
 *
 * ```ts
 * import { resolveConfig, selectSite, build } from 'typo3-headless-site'
 * const config = await resolveConfig({ apiBaseUrl: 'https://cms.example.com' })
 * const result = await build({ config, site: selectSite(config.sites) })
 * if (result.failures.length) process.exitCode = 1
 * ```
 */
import type { PreviewServer, PreviewServerOptions } from './preview/server.js'

/** The one API client build and preview share. */
export { type ApiClient, createApiClient, type PageResult } from './api/client.js'
/** `site build`: renders every page of every locale into an output folder, atomically; returns what happened. */
export { build } from './build/build.js'
export type { BuildLogger, BuildOptions, BuildProgress, BuildResult } from './build/types.js'
/** Every option's default (docs/configuration.md lists them). */
export { DEFAULTS } from './config/defaults.js'
/** Type-checks a config object in `site.config.ts`. */
export { defineConfig } from './config/define.js'
/** Loads, validates and resolves the config file (`config/site.config.ts` by default) with the CLI's flags. */
export { resolveConfig } from './config/load.js'
/** Picks the site for a host name (`--site`, or a request's Host); the only site when there is one. */
export { selectSite } from './config/resolve.js'
export type { InlineConfig, ResolvedConfig, ResolvedSite, SiteEntry, SiteOptions, UserConfig } from './config/types.js'
/** `site demo-api --fail PATH=STATUS` and `--fail-initial`: faults from the shell. */
export { describeDemoFault, initialDataFault, parseDemoFault } from './demo/faults.js'
/** `site demo-api`: the bundled demo content API. */
export { type DemoApi, type DemoApiOptions, type DemoFault, startDemoApi } from './demo/server.js'
/** The error catalogue (SPEC point 8); USAGE_CODES are the codes of bad input (exit code 2). */
export { type ErrorCode, errors, FetchError, isSiteError, SiteError, USAGE_CODES } from './errors.js'
/** `site init [dir]`: a new site project from the engine's demo site, its README, .gitignore and CI workflow. */
export { checkApiUrl, type InitOptions, type InitResult, initProject } from './init/init.js'
/** `site serve`: a static server for a built output folder. */
export { type StaticServerOptions, startStaticServer } from './serve/server.js'
/** The engine's npm name and the modules a project imports from it. */
export { CONFIG_MODULE, ENGINE_PACKAGE, RUNTIME_MODULE } from './shared/modules.js'
export type { PreviewServer, PreviewServerOptions }

/**
 * `site preview`: the live preview server for editors (watch and reload included). Loaded on
 * call: it brings the render core and React, which `site build`'s main thread does without.
 */
export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const preview = await import('./preview/server.js')
  return preview.startPreviewServer(options)
}
