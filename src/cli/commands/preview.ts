import type { InlineConfig } from '../../index.js'
import { handleError } from '../exit.js'
import { printLine } from '../terminal.js'
import { waitForShutdown } from './shutdown.js'

export interface PreviewCommandOptions {
  config?: string
  site?: string
  api?: string
  port: number
  host: string
  watch: boolean
  debug?: boolean
}

/** `site preview`: starts the preview server, prints its URL, and runs until SIGINT/SIGTERM. */
export async function runPreviewCommand(opts: PreviewCommandOptions, global: { verbose?: boolean }): Promise<number> {
  // React's production build unless asked otherwise (NODE_ENV=development shows React's warnings):
  // preview shows what the static site shows, at a fraction of the render cost. Set before the
  // render core (and React) is first imported.
  process.env.NODE_ENV ||= 'production'
  let api: string | undefined
  try {
    const { redactSecrets, resolveConfig, selectSite, siteSecrets, startPreviewServer, toApiOrigin } = await import(
      '../../index.js'
    )
    const inline: InlineConfig = {
      root: process.cwd(),
      ...(opts.config ? { configFile: opts.config } : {}),
      ...(opts.api ? { apiBaseUrl: opts.api } : {}),
      ...(opts.debug ? { debug: true } : {}),
    }
    const config = await resolveConfig(inline)
    // the sites it answers for: with --site that one only (the server refuses a host no site has)
    const sites = opts.site ? [selectSite(config.sites, opts.site)] : config.sites
    api = sites.map((s) => toApiOrigin(s.api.baseUrl)).join(', ') || undefined
    const server = await startPreviewServer({
      config,
      host: opts.host,
      port: opts.port,
      watch: opts.watch,
      inline,
      log: printLine,
      ...(opts.site ? { site: opts.site } : {}),
    })
    const hosts = sites.flatMap((s) => s.hostnames)
    const shutdown = waitForShutdown()
    process.stdout.write(
      `Preview: ${server.url}/${sites.length > 1 ? ` (sites by Host header: ${hosts.join(', ')})` : ''}\n`,
    )
    process.stdout.write(
      `API: ${[...new Set(sites.map((s) => redactSecrets(s.api.baseUrl, siteSecrets(s))))].join(', ')}${opts.watch ? '; watching templates/, config/ and public/' : ''}\n`,
    )
    await shutdown
    await server.close()
    return 0
  } catch (error) {
    return handleError(error, { verbose: global.verbose, command: 'preview', api })
  }
}
