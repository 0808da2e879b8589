import { describe, expect, it } from 'vitest'
import { compiledModuleUrl } from '../../../src/shared/compiled-module.js'

describe('compiledModuleUrl', () => {
  it.each([
    ['file:///p/src/cli/build-host.ts', 'build-worker.js', 'file:///p/dist/cli/build-worker.js'],
    [
      'file:///p/src/build/render-threads/render-pool.ts',
      'render-worker.js',
      'file:///p/dist/build/render-threads/render-worker.js',
    ],
    ['file:///p/src/index.ts', 'x.js', 'file:///p/dist/x.js'],
    ['file:///home/src/site/src/media/image-process.ts', 'main.js', 'file:///home/src/site/dist/media/main.js'],
    ['file:///p/dist/cli/build-host.js', 'build-worker.js', 'file:///p/dist/cli/build-worker.js'],
    [
      'file:///p/node_modules/typo3-headless-site/dist/cli/publish-host.js',
      'publish-worker.js',
      'file:///p/node_modules/typo3-headless-site/dist/cli/publish-worker.js',
    ],
  ])('%s, %s -> %s', (from, file, url) => expect(compiledModuleUrl(from, file).href).toBe(url))
})
