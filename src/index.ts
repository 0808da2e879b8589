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

/** Loads, validates and resolves the config file (`config/site.config.ts` by default) with CLI-style overrides. */
export { resolveConfig } from './config/load.js'
/** Picks the site for a host name (`--site`, or a request's Host); the only site when there is one. */
export { selectSite } from './config/resolve.js'
/** Type-checks a config object in `site.config.ts`. */
export { defineConfig } from './config/define.js'
export type { UserConfig, SiteOptions, SiteEntry, InlineConfig, ResolvedConfig, ResolvedSite } from './config/types.js'

/** `site build`: renders every page of every locale into an output folder, atomically; returns what happened. */
export { build, type BuildOptions, type BuildResult } from './build/build.js'
/** `site preview`: the live preview server for editors (watch and reload included). */
export { startPreviewServer, type PreviewServerOptions, type PreviewServer } from './preview/server.js'
/** `site serve`: a static server for a built output folder. */
export { startStaticServer, type StaticServerOptions } from './serve/server.js'
/** `site demo-api`: the bundled demo content API. */
export { startDemoApi, type DemoApi, type DemoApiOptions, type DemoFault } from './demo/server.js'
/** The one API client build and preview share. */
export { createApiClient, type ApiClient, type PageResult } from './api/client.js'
/** The render core: pure, used by build, preview and the browser. */
export { renderPage } from './render/render-page.js'
export { renderDocument } from './render/document.js'
export { preparePage, prepareInitialData } from './render/prepare.js'
export { loadTemplates } from './render/templates.js'
export type { RenderState, RenderResult, TemplateRegistry, PagePayload, BootState } from './render/types.js'
/** The error catalogue (SPEC point 8). */
export { SiteError, FetchError, errors, type ErrorCode } from './errors.js'
