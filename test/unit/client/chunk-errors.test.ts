import { describe, expect, it } from 'vitest'
import { isChunkLoadError, isSiteAssetUrl } from '../../../src/client/chunk-errors.js'

describe('chunk load errors', () => {
  it('recognise failed dynamic imports and engine asset URLs', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://s/_site/assets/chunk-A.js')),
    ).toBe(true)
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isChunkLoadError(new Error('x is undefined'))).toBe(false)
    expect(isSiteAssetUrl('https://s.test/_site/assets/entry-A.js', 'https://s.test')).toBe(true)
    expect(isSiteAssetUrl('https://cdn.test/_site/assets/entry-A.js', 'https://s.test')).toBe(false)
  })
})
