import { type ApiClient, type ApiClientOptions, createApiClient } from '../api/client.js'
import { siteRedactor } from '../config/secrets.js'
import type { ResolvedConfig, ResolvedSite } from '../config/types.js'
import type { ClientBundle } from '../hydration/bundle.js'
import { createDocumentShell, type DocumentShell, renderDocumentParts } from '../render/document.js'
import { createMissingTemplates, type MissingTemplates } from '../render/missing-templates.js'
import { renderPage } from '../render/render-page.js'
import type { PageRenderer, RenderWatch } from '../render/renderer.js'
import { toPublicSiteInfo } from '../render/site-info.js'
import type { PublicSiteInfo, TemplateRegistry } from '../shared/contract.js'
import { type ApiWatch, createApiWatch } from './api-errors.js'
import type { ReloadEvents } from './events.js'
import { createHostGuard } from './hosts.js'

/**
 * Everything one preview answer needs, built once per (re)load and swapped as
 * a whole by the server when templates, config or public files change. The
 * handler keeps no other state.
 */

/** A configured site with its one API client. */
export interface PreviewSite {
  readonly site: ResolvedSite
  readonly api: ApiClient
  /** What the browser may know of the site (never API headers or credentials). */
  readonly info: PublicSiteInfo
  /** A text without the site's API credentials (`***` for them): what `?debug` and the terminal show. */
  readonly redact: (text: string) => string
}

export interface PreviewContext {
  readonly config: ResolvedConfig
  readonly sites: readonly PreviewSite[]
  /** The render core over the loaded templates: the one build workers render with. */
  readonly renderer: Pick<PageRenderer, 'renderPage' | 'renderDocumentParts'>
  readonly client: ClientBundle
  /** The document parts every page with the visitor's assets shares, made once per context. */
  readonly shell: DocumentShell
  /** Bundle files by URL path (`/_site/assets/entry-3f2a.js`). */
  readonly assetFiles: ReadonlyMap<string, string | Uint8Array>
  /** Files of `public/` by decoded relative path (`sw.js`, `icons/a.png`) -> absolute file. */
  readonly publicFiles: ReadonlyMap<string, string>
  readonly events: ReloadEvents
  /** When this context was built: the timestamp of `/_site/builds/latest.json`, and the version of its pages (events.ts). */
  readonly builtAt: number
  /** Where unexpected errors (a template that throws) are reported; one line each. */
  readonly log: (line: string) => void
  /** Layouts and content element types rendered with `Default` since this context was built (each noted once). */
  readonly missingTemplates: MissingTemplates
  /** Says on the terminal when an API stops answering, and when it answers again. */
  readonly apiWatch: ApiWatch
  /** Undefined when a request's `Host` may be answered, else the 403 answer (see hosts.ts). */
  readonly guardHost: (host: string) => Response | undefined
  /** Runs each page render (`site preview`'s main thread ends one that runs past build.renderTimeoutMs). */
  readonly watchRender: RenderWatch
}

export interface PreviewContextInput {
  config: ResolvedConfig
  registry: TemplateRegistry
  client: ClientBundle
  events: ReloadEvents
  publicFiles?: ReadonlyMap<string, string>
  /** undici dispatcher for the API clients (tests); the API client's own keep-alive Agent by default. */
  api?: ApiClientOptions
  now?: () => number
  log?: (line: string) => void
  /** See PreviewContext.watchRender; renders run as they are by default. */
  renderWatch?: RenderWatch
}

/** The id preview answers with wherever a build id goes (boot state, payloads, latest.json). */
export const PREVIEW_BUILD_ID = 'preview'

/**
 * Terminal lines without the API credentials of these sites (the userinfo and query values of
 * `api.baseUrl`, the values of `api.headers`): a terminal is often a shared or recorded log.
 */
function withoutSecrets(log: (line: string) => void, sites: readonly PreviewSite[]): (line: string) => void {
  return (line) => log(sites.reduce((text, site) => site.redact(text), line))
}

/** Assembles a context: one API client per site, the bundle files indexed by URL. No I/O. */
export function createPreviewContext(input: PreviewContextInput): PreviewContext {
  const sites = input.config.sites.map((site) => ({
    site,
    api: createApiClient(site, input.api),
    info: toPublicSiteInfo(site),
    redact: siteRedactor(site),
  }))
  const log = withoutSecrets(input.log ?? ((line: string) => process.stderr.write(`${line}\n`)), sites)
  return {
    config: input.config,
    sites,
    renderer: { renderPage: (state) => renderPage(state, input.registry), renderDocumentParts },
    client: input.client,
    shell: createDocumentShell(input.client.assets),
    assetFiles: new Map(input.client.files.map((file) => [`/${file.path.replace(/^\/+/, '')}`, file.contents])),
    publicFiles: input.publicFiles ?? new Map(),
    events: input.events,
    builtAt: (input.now ?? Date.now)(),
    log,
    missingTemplates: createMissingTemplates(),
    apiWatch: createApiWatch({ log, configFile: input.config.configFile }),
    guardHost: createHostGuard(input.config.sites, log),
    watchRender: input.renderWatch ?? ((_render, run) => run()),
  }
}
