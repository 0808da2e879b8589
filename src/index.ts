/**
 * The programmatic API of `site`: what the CLI calls, for scripts and tests.
 *
 * ```ts
 * import { resolveConfig, selectSite, build } from 'site'
 * const config = await resolveConfig({ apiBaseUrl: 'https://cms.example.com' })
 * const result = await build({ config, site: selectSite(config.sites) })
 * if (result.failures.length) process.exitCode = 1
 * ```
 */

/** The one API client build and preview share. */
export { type ApiClient, createApiClient, type PageResult } from './api/client.js'
/** `site build`: renders every page of every locale into an output folder, atomically; returns what happened. */
export { type BuildOptions, type BuildResult, build } from './build/build.js'
/** Type-checks a config object in `site.config.ts`. */
export { defineConfig } from './config/define.js'
/** Loads, validates and resolves the config file (`config/site.config.ts` by default) with CLI-style overrides. */
export { resolveConfig } from './config/load.js'
/** Picks the site for a host name (`--site`, or a request's Host); the only site when there is one. */
export { selectSite } from './config/resolve.js'
export type { InlineConfig, ResolvedConfig, ResolvedSite, SiteEntry, SiteOptions, UserConfig } from './config/types.js'
/** `site demo-api`: the bundled demo content API. */
export { type DemoApi, type DemoApiOptions, type DemoFault, startDemoApi } from './demo/server.js'
/** The error catalogue (SPEC point 8). */
export { type ErrorCode, errors, FetchError, SiteError } from './errors.js'
export { loadTemplates } from './hydration/node-registry.js'
/** `site preview`: the live preview server for editors (watch and reload included). */
export { type PreviewServer, type PreviewServerOptions, startPreviewServer } from './preview/server.js'
export { renderDocument } from './render/document.js'
export { prepareInitialData, preparePage } from './render/prepare.js'
/** The render core: pure, used by build, preview and the browser. */
export { renderPage } from './render/render-page.js'
/** `site serve`: a static server for a built output folder. */
export { type StaticServerOptions, startStaticServer } from './serve/server.js'
export type { BootState, PagePayload, RenderResult, RenderState, TemplateRegistry } from './shared/contract.js'
