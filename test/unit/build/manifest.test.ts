import { describe, expect, it } from 'vitest'
import { createManifest, renderManifestFiles } from '../../../src/build/manifest.js'

describe('manifest', () => {
  it('sorts and de-duplicates the prerendered paths', () => {
    const manifest = createManifest({ id: 'abc', timestamp: 1000, prerendered: ['/pl', '/', '/about', '/pl'] })
    expect(manifest).toEqual({ id: 'abc', timestamp: 1000, prerendered: ['/', '/about', '/pl'] })
  })

  it('renders latest.json and meta/<id>.json under _site/builds', () => {
    const files = renderManifestFiles({ id: 'abc', timestamp: 1000, prerendered: ['/'] })
    expect(files.map((f) => f.path)).toEqual(['_site/builds/latest.json', '_site/builds/meta/abc.json'])
    expect(JSON.parse(files[0]!.contents)).toEqual({ id: 'abc', timestamp: 1000 })
    expect(JSON.parse(files[1]!.contents)).toEqual({ id: 'abc', timestamp: 1000, prerendered: ['/'] })
  })
})
