/**
 * What the publisher builds with: an object with `build` and `close`. It is the engine's warm builder
 * (build/builder.ts): render workers that keep the templates loaded, the client bundled once, the API's
 * connections kept open between CMS events. Templates are read at start: restart the publisher to publish
 * template changes (its check at start builds what they changed).
 */
import { createBuilder as createEngineBuilder } from '../build/builder.js'
import type { OutputMemory } from '../build/incremental/previous.js'
import type { BuildLogger, BuildResult } from '../build/types.js'
import type { ResolvedConfig, ResolvedSite } from '../config/types.js'
import type { RenderWatch } from '../render/renderer.js'

export interface Builder {
  /** A build over the output folder: of the named pages (`only`: uids or paths), or of every page. */
  build(options: { only?: string[]; signal?: AbortSignal }): Promise<BuildResult>
  /** What its builds know of the output folder (the deploy reads only what changed since). */
  readonly memory?: OutputMemory
  /** Asks the API now for the pages of a recorded event (`only` items), for the next build to take. */
  prefetch?(items: readonly string[]): void
  close(): Promise<void>
}

export function createBuilder(input: {
  config: ResolvedConfig
  site: ResolvedSite
  logger?: BuildLogger
  /** Runs each render of the publisher's own thread (`build.renderThreads: 0`): see BuilderOptions.inlineRenderWatch. */
  renderWatch?: RenderWatch
}): Builder {
  const { config, site, logger, renderWatch } = input
  const engine = createEngineBuilder({ config, site, ...(renderWatch ? { inlineRenderWatch: renderWatch } : {}) })
  return {
    memory: engine.memory,
    prefetch: (items) => engine.prefetch(items),
    build: ({ only, signal }) => engine.build({ only, signal, logger }),
    close: () => engine.close(),
  }
}
