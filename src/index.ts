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
/**
 * A builder that lives: templates loaded and the client bundled once, API connections kept, `build()` as
 * often as asked (one at a time), `close()` to release it all. What `site publish` keeps warm.
 */
export { type Builder, type BuilderOptions, type BuilderRunOptions, createBuilder } from './build/builder.js'
/** `site deploy`'s hold on the output folder while it reads it (no build swaps it in meanwhile). */
export { lockDeployOutput } from './build/output/output.js'
export type { BuildLogger, BuildOptions, BuildProgress, BuildResult } from './build/types.js'
/** Every option's default (docs/configuration.md lists them). */
export { DEFAULTS } from './config/defaults.js'
/** Type-checks a config object in `site.config.ts`. */
export { defineConfig } from './config/define.js'
/** Loads, validates and resolves the config file (`config/site.config.ts` by default) with the CLI's flags. */
export { projectFolderAbove, resolveConfig } from './config/load.js'
/** Picks the site for a host name (`--site`, or a request's Host); the only site when there is one. */
export { otherSitesOf, outDirOf, publishOptionsOf, resolveSiteOptions, selectSite } from './config/resolve.js'
/** What a site's API settings hide from printed lines (credentials), and the API's origin that lines name instead. */
export { siteSecrets, toApiOrigin } from './config/secrets.js'
export type {
  InlineConfig,
  PublishOptions,
  ResolvedConfig,
  ResolvedPublish,
  ResolvedSite,
  SiteEntry,
  SiteOptions,
  UserConfig,
} from './config/types.js'
/** `site demo-api --fail PATH=STATUS` and `--fail-initial`: faults from the shell. */
export { describeDemoFault, initialDataFault, parseDemoFault } from './demo/faults.js'
/** `site demo-api`: the bundled demo content API. */
export { type DemoApi, type DemoApiOptions, type DemoFault, startDemoApi } from './demo/server.js'
/** `site deploy`: sends what changed in a built output to a target (docs/publish.md). */
export { type DeployOptions, type DeployReport, deploy } from './deploy/deploy.js'
export { DEPLOY_STEPS, type DeployStep } from './deploy/plan.js'
export { type DeploySpec, parseDeploySpec } from './deploy/target-spec.js'
export { createDeployTarget } from './deploy/targets/index.js'
export type { DeployTarget } from './deploy/targets/types.js'
/** The error catalogue; USAGE_CODES are the codes of bad input (exit code 2). */
export {
  type ErrorCode,
  errors,
  FetchError,
  isSiteError,
  redactSecrets,
  SiteError,
  USAGE_CODES,
} from './errors.js'
/** `site init [dir]`: a new site project from the engine's demo site, its README, .gitignore and CI workflow. */
export { checkApiUrl, type InitOptions, type InitResult, initProject } from './init/init.js'
/** `site publish`: the webhook-fed publisher (docs/publish.md), building with a warm builder. */
export { type PublishServer, type PublishServerOptions, startPublishServer } from './publish/server.js'
export type { PublishStatus } from './publish/status.js'
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
