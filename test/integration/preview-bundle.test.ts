/**
 * The preview entry (live reload and the error overlay, src/client/preview/) is bundled by preview only:
 * a site build's output has no trace of it, and the visitor's entry does not carry it.
 */
import { describe, expect, it } from 'vitest'
import { bundleClient, createClientBundler } from '../../src/hydration/bundle.js'
import { REPO_ROOT } from './build-helpers.js'

const text = (contents: string | Uint8Array) =>
  typeof contents === 'string' ? contents : new TextDecoder().decode(contents)

describe('the preview entry', () => {
  it('is in preview’s bundle, on its own, and in no file of a build’s', async () => {
    const built = await bundleClient({ root: REPO_ROOT })
    expect(built.previewAssets).toBeUndefined()
    for (const file of built.files) expect(text(file.contents), file.path).not.toContain('site-error-overlay')

    const bundler = createClientBundler({ root: REPO_ROOT, minify: false, preview: true })
    try {
      const preview = await bundler.rebuild()
      const script = preview.previewAssets?.scripts[0] ?? ''
      expect(script).toMatch(/^\/_site\/assets\/preview-[A-Z0-9]+\.js$/)
      const files = new Map(preview.files.map((file) => [`/${file.path}`, text(file.contents)]))
      expect(files.get(script)).toContain('site-error-overlay')
      for (const url of [...preview.assets.scripts, ...(preview.assets.modulePreloads ?? [])])
        expect(files.get(url), url).not.toContain('site-error-overlay')
    } finally {
      await bundler.dispose()
    }
  }, 60_000)
})
