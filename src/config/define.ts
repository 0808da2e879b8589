import type { UserConfig } from './types.js'

export type { SiteEntry, SiteOptions, UserConfig } from './types.js'

/** Type-checks a `site.config.ts`; returns the config unchanged. */
export const defineConfig = (config: UserConfig): UserConfig => config
