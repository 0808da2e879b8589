import { join } from 'node:path'
import type { ApiClientOptions } from '../api/client.js'
import { resolveConfig } from '../config/load.js'
import { selectSite } from '../config/resolve.js'
import type { InlineConfig, ResolvedConfig } from '../config/types.js'
import { createClientBundler } from '../hydration/bundle.js'
import { missingTextsNotes, scanTemplates } from '../hydration/manifest.js'
import { loadTemplates } from '../hydration/node-registry.js'
import { listPublicFiles } from '../project/public-files.js'
import type { RenderWatch } from '../render/renderer.js'
import { settleInOrder } from '../shared/settle.js'
import { createPreviewContext, type PreviewContext } from './context.js'
import type { ReloadEvents } from './events.js'

/**
 * The I/O half of a preview context: templates, client bundle, `public/`
 * listing and (on reload) the configuration. Used at start and after each
 * watched change; a failure leaves the caller's current context in place.
 */
export interface ContextLoader {
  /** Loads everything; `reloadConfig` re-reads the config file first. */
  load(reloadConfig: boolean): Promise<PreviewContext>
  dispose(): Promise<void>
}

export interface ContextLoaderOptions {
  config: ResolvedConfig
  root: string
  /** How the config is read again on a change (`--config`, `--api`). */
  inline: InlineConfig
  /** `--site HOST`: serve only this site. */
  site?: string
  events: ReloadEvents
  api?: ApiClientOptions
  log: (line: string) => void
  renderWatch?: RenderWatch
}

/** `public/` as preview serves it: relative path (as listPublicFiles gives it) -> absolute file. */
export async function loadPublicFiles(dir: string): Promise<Map<string, string>> {
  const { files } = await listPublicFiles(dir)
  return new Map(files.map((file) => [file, join(dir, file)]))
}

/** Keeps only the `--site` site when one is named. */
function withSite(config: ResolvedConfig, site: string | undefined): ResolvedConfig {
  return site ? { ...config, sites: [selectSite(config.sites, site)] } : config
}

export function createContextLoader(options: ContextLoaderOptions): ContextLoader {
  const { root, events, log } = options
  let config = withSite(options.config, options.site)
  const bundler = createClientBundler({ root, minify: false, preview: true })
  return {
    async load(reloadConfig) {
      const nextConfig = reloadConfig ? withSite(await resolveConfig(options.inline), options.site) : config
      // templates/ read once for both bundles: the Node registry and the browser client. As in a build, the
      // browser bundle's failure is the one told whichever came first: it names the template behind an import
      // that runs only in Node, where the registry's says only what failed to load
      const manifest = await scanTemplates(root)
      const [client, registry, publicFiles] = await settleInOrder([
        bundler.rebuild(manifest),
        loadTemplates(root, { manifest }),
        loadPublicFiles(join(root, 'public')),
      ])
      config = nextConfig
      // The editor's developer sees it on the terminal at start and after each change.
      const notes = [...client.hints, ...nextConfig.sites.flatMap((site) => missingTextsNotes(client.texts, site.i18n))]
      for (const note of new Set(notes)) log(`preview: note: ${note}`)
      return createPreviewContext({
        config,
        registry,
        client,
        events,
        publicFiles,
        log,
        ...(options.api ? { api: options.api } : {}),
        ...(options.renderWatch ? { renderWatch: options.renderWatch } : {}),
      })
    },
    dispose: async () => {
      await bundler.dispose()
    },
  }
}
