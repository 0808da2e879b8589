/**
 * What the publisher builds with: an object with `build` and `close`, so that a warm builder (one that
 * keeps the previous output loaded between builds) can take the place of this one, which runs a whole
 * `build()` each time. What does not change while the publisher runs is made once and reused: the
 * browser client bundle and, for builds of a few named pages, the render core in this thread (no render
 * workers to start for a handful of pages). Templates are read at start: restart the publisher to
 * publish template changes. A full build, and one of many pages, renders in worker threads as `site build` does.
 */
import { build } from '../build/build.js'
import type { BuildLogger, BuildResult } from '../build/types.js'
import type { ResolvedConfig, ResolvedSite } from '../config/types.js'
import { bundleClient, type ClientBundle } from '../hydration/bundle.js'
import { loadRenderer, type PageRenderer } from '../render/renderer.js'
import { PUBLISH_INLINE_RENDER_MAX_PAGES } from '../shared/constants.js'

export interface Builder {
  /** A build over the output folder: of the named pages (`only`: uids or paths), or of every page. */
  build(options: { only?: string[]; signal?: AbortSignal }): Promise<BuildResult>
  close(): Promise<void>
}

/** A promise made once and kept, unless it fails (then the next call tries again). */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined
  return () => {
    made ??= make().catch((error) => {
      made = undefined
      throw error
    })
    return made
  }
}

export function createBuilder(input: { config: ResolvedConfig; site: ResolvedSite; logger?: BuildLogger }): Builder {
  const { config, site, logger } = input
  const client = once<ClientBundle>(() => bundleClient({ root: config.root, minify: true }))
  const renderer = once<PageRenderer>(() => loadRenderer(config.root))
  return {
    async build({ only, signal }) {
      const few = only !== undefined && only.length <= PUBLISH_INLINE_RENDER_MAX_PAGES
      const inline = few ? await renderer() : undefined
      return build({ config, site, logger, only, signal, bundleClient: client, renderer: inline })
    },
    close: async () => {},
  }
}
