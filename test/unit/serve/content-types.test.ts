/** The content types of the files a built site holds, as `site serve` sends them and `site deploy` stores them (S3). */
import { describe, expect, it } from 'vitest'
import { COPIED_EXTENSIONS, RASTER_EXTENSIONS } from '../../../src/media/policy.js'
import { contentTypeOf } from '../../../src/serve/content-types.js'

describe('contentTypeOf', () => {
  it('names a type for every kind of file a build copies from the CMS, never bytes', () => {
    // a video sent as application/octet-stream does not play (Firefox refuses it), a PDF is not shown
    for (const extension of [...COPIED_EXTENSIONS, ...RASTER_EXTENSIONS])
      expect([extension, contentTypeOf(`_site/media/0a1b/file.${extension}`)]).not.toEqual([
        extension,
        'application/octet-stream',
      ])
    expect(contentTypeOf('_site/media/0a1b/clip.MP4')).toBe('video/mp4')
    expect(contentTypeOf('_site/media/0a1b/talk.mp3')).toBe('audio/mpeg')
    expect(contentTypeOf('_site/media/0a1b/report.docx')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    )
  })

  it('names the types a browser checks before it uses a file from public/ (captions, WebAssembly, fonts)', () => {
    // a <track> whose file is not text/vtt shows no captions; WebAssembly.instantiateStreaming refuses any other type
    expect(contentTypeOf('captions/intro.en.vtt')).toBe('text/vtt; charset=utf-8')
    expect(contentTypeOf('app/module.wasm')).toBe('application/wasm')
    expect(contentTypeOf('fonts/Inter.ttf')).toBe('font/ttf')
    expect(contentTypeOf('fonts/Inter.otf')).toBe('font/otf')
  })

  it('sends what it does not know as bytes', () => {
    expect(contentTypeOf('_redirects')).toBe('application/octet-stream')
    expect(contentTypeOf('a/b.unknown')).toBe('application/octet-stream')
  })
})
