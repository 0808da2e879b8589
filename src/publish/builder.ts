/**
 * What the publisher builds with: an object with `build` and `close`, so that a warm builder (one that
 * keeps the render core and the previous output loaded between builds) can take the place of this one,
 * which runs a whole `build()` each time.
 */
import { build } from '../build/build.js'
import type { BuildLogger, BuildResult } from '../build/types.js'
import type { ResolvedConfig, ResolvedSite } from '../config/types.js'

export interface Builder {
  /** A build over the output folder: of the named pages (`only`: uids or paths), or of every page. */
  build(options: { only?: string[]; signal?: AbortSignal }): Promise<BuildResult>
  close(): Promise<void>
}

export function createBuilder(input: { config: ResolvedConfig; site: ResolvedSite; logger?: BuildLogger }): Builder {
  const { config, site, logger } = input
  return {
    build: (options) => build({ config, site, logger, only: options.only, signal: options.signal }),
    close: async () => {},
  }
}
