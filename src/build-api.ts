/**
 * The part of the programmatic API (src/index.ts) that a build needs: config, the builder, secrets kept out of
 * what is printed. The CLI's build worker enters the engine here, so that its thread does not load what only
 * preview, serve, deploy, publish or the demo API run (sharp among them).
 */
export { createBuilder } from './build/builder.js'
export { checkOutDir, lockBuildOutput, removeOwnBuildLeftovers } from './build/output/output.js'
export { resolveConfig } from './config/load.js'
export { outDirOf, selectSite } from './config/resolve.js'
export { siteRedactor, toApiOrigin } from './config/secrets.js'
export { redactSecrets } from './errors.js'
export type { RenderWatch } from './render/renderer.js'
