/**
 * The part of the programmatic API (src/index.ts) that `site publish` needs: config, the publisher, the deploy
 * target's spec. The CLI's publish worker enters the engine here, so that the publisher's process loads nothing
 * of preview, init or the demo API; libvips among them, which only the image process of its builds loads.
 */
export { resolveConfig } from './config/load.js'
export { outDirOf, publishOptionsOf, selectSite } from './config/resolve.js'
export { siteRedactor } from './config/secrets.js'
export { parseDeploySpec } from './deploy/target-spec.js'
export { redactSecrets } from './errors.js'
export { startPublishServer } from './publish/server.js'
