import { createServer } from 'node:http'
import { join, relative } from 'node:path'
import { Agent } from 'undici'
import type { ApiClientOptions } from '../api/client.js'
import type { InlineConfig, ResolvedConfig } from '../config/types.js'
import { isSiteError, messageOf } from '../errors.js'
import type { RenderWatch } from '../render/renderer.js'
import { type FetchHandler, refuseConnect, toNodeListener } from '../serve/node-http.js'
import { closeServer, listen, type RunningServer } from '../serve/server.js'
import { createReloadEvents } from './events.js'
import { createPreviewHandler, createProblemHandler } from './handler.js'
import { createContextLoader } from './load-context.js'
import { toPreviewProblem } from './problems.js'
import { type ProjectWatcher, watchProject } from './watch.js'

export interface PreviewServerOptions {
  config: ResolvedConfig
  /** Project root (`templates/`, `config/`, `public/`); the config's root by default. */
  root?: string
  host: string
  /** 0 picks a free port. */
  port: number
  watch: boolean
  /** `--site HOST`: serve only this site. */
  site?: string
  /** How the config is read again after a change; by default the same file under the same root. */
  inline?: InlineConfig
  api?: ApiClientOptions
  log?: (line: string) => void
  /**
   * Runs each page render, for a thread that can end this one when a render runs past the site's
   * build.renderTimeoutMs (`site preview` runs the server in a worker its main thread watches).
   */
  renderWatch?: RenderWatch
}

export interface PreviewServer extends RunningServer {
  /** Reloads config, templates, bundle and `public/` now (what a watched change does); false when it failed. */
  reload(changed?: readonly string[]): Promise<boolean>
}

/** An error's first lines as one: `Templates failed to compile:\n  a.tsx:1:2: …` -> `Templates failed to compile: a.tsx:1:2: …`. */
const firstLine = (error: unknown): string =>
  messageOf(error)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(0, 3)
    .reduce((joined, line) => (joined === '' ? line : `${joined}${joined.endsWith(':') ? ' ' : ' | '}${line}`), '')

/** `site preview`: the node:http binding of the preview handler, with watch and live reload. */
export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const root = options.root ?? options.config.root
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const events = createReloadEvents()
  const inline = options.inline ?? { root, configFile: options.config.configFile }
  // one pool of API connections for the server's life, whatever its reloads (closed with it)
  const agent = options.api?.dispatcher ? undefined : new Agent()
  const loader = createContextLoader({
    config: options.config,
    root,
    inline,
    events,
    log,
    ...(options.site ? { site: options.site } : {}),
    api: options.api ?? { dispatcher: agent },
    ...(options.renderWatch ? { renderWatch: options.renderWatch } : {}),
  })
  let handler = await firstHandler()

  /**
   * The handler of the first load. With watch on, templates that do not load yet are not fatal: the developer
   * fixes them while preview runs, as after any later change (the config must load: it says where to listen).
   */
  async function firstHandler(): Promise<FetchHandler> {
    try {
      return createPreviewHandler(await loader.load(false))
    } catch (error) {
      if (!options.watch || !isSiteError(error) || error.code !== 'TEMPLATES_INVALID') throw error
      log(`preview: the templates do not load; every page shows why until a change fixes them: ${firstLine(error)}`)
      const problem = await toPreviewProblem(root, error)
      events.send('problem', JSON.stringify(problem))
      return createProblemHandler({ sites: options.config.sites, events, problem, log })
    }
  }

  async function reload(changed: readonly string[] = []): Promise<boolean> {
    let version: number
    try {
      const ctx = await loader.load(true)
      handler = createPreviewHandler(ctx)
      version = ctx.builtAt
    } catch (error) {
      log(`preview: reload failed, still serving the previous version: ${firstLine(error)}`)
      // Open tabs show it over the page (file, line, code) until a change fixes it and reloads them.
      events.send('problem', JSON.stringify(await toPreviewProblem(root, error)))
      return false
    }
    events.send('reload', String(version))
    if (changed.length)
      log(
        `preview: reloaded after changes to ${changed
          .map((file) => relative(root, file))
          .slice(0, 3)
          .join(', ')}${changed.length > 3 ? ', …' : ''}`,
      )
    return true
  }

  const server = createServer(
    toNodeListener(
      (request) => handler(request),
      (error) => log(`preview: ${firstLine(error)}`),
    ),
  )
  refuseConnect(server)
  let watcher: ProjectWatcher | undefined
  try {
    const url = await listen(server, options.host, options.port)
    if (options.watch) {
      const paths = [join(root, 'templates'), join(root, 'config'), join(root, 'public'), options.config.configFile]
      watcher = await watchProject({ paths, onChange: async (changed) => void (await reload(changed)) })
    }
    return {
      url,
      reload,
      async close() {
        await watcher?.close()
        events.close()
        await closeServer(server)
        await loader.dispose()
        await agent?.close()
      },
    }
  } catch (error) {
    await watcher?.close()
    server.close()
    await loader.dispose()
    await agent?.close()
    throw error
  }
}
