import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveSites } from '../../../src/config/resolve.js'
import { applyMedia } from '../../../src/media/apply.js'
import { safeFileName } from '../../../src/media/names.js'
import { createMediaPolicy } from '../../../src/media/policy.js'
import { checkEntry, readMediaRecord, serializeRecord } from '../../../src/media/record.js'
import { findFileRefs, findFileUrls, findFileUrlsIn } from '../../../src/media/scan.js'
import { claimedFormat, contentTypeAgrees, isAnimatedPng, sniffRaster } from '../../../src/media/sniff.js'
import { planVariants } from '../../../src/media/variants.js'
import { Image } from '../../../src/runtime/Media.js'
import { MEDIA_RECORD_FILE } from '../../../src/shared/layout.js'
import type { PageData } from '../../../src/shared/types.js'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('findFileRefs', () => {
  it('names each file by its path on the API origin or its whole URL, with the originals of processed images', () => {
    const body = Buffer.from(
      JSON.stringify({
        content: [
          {
            publicUrl: 'https://cms.example/fileadmin/_processed_/1/csm_photo_1a.jpg?1700000000',
            properties: { originalUrl: '/fileadmin/photo.jpg' },
          },
          { publicUrl: 'https://cdn.example/logo.png', properties: { originalUrl: '' } },
          { publicUrl: 'https://www.youtube.com/watch?v=x', properties: { originalUrl: 'data:x' } },
          { publicUrl: 'https://cms.example/fileadmin/photo.jpg' },
        ],
      }),
    )
    expect(findFileRefs(body, findFileUrls(body), 'https://cms.example')).toEqual([
      '/fileadmin/_processed_/1/csm_photo_1a.jpg',
      '/fileadmin/photo.jpg',
      'https://cdn.example/logo.png',
      'https://www.youtube.com/watch',
    ])
  })
})

describe('findFileUrls', () => {
  it('reads every publicUrl of an answer, escaped or pretty-printed, once, and tells share images apart', () => {
    const body = bytes(
      JSON.stringify({
        meta: { ogImage: { publicUrl: 'https://cms.example/share.png' } },
        content: {
          colPos0: [
            {
              content: {
                gallery: { publicUrl: 'https://cms.example/a.jpg' },
                more: [{ publicUrl: 'https://cms.example/a.jpg' }],
              },
            },
          ],
        },
      }).replaceAll('/', '\\/'),
    )
    expect(findFileUrls(body)).toEqual([
      { url: 'https://cms.example/share.png', shown: false },
      { url: 'https://cms.example/a.jpg', shown: true },
    ])
    const pretty = bytes(
      JSON.stringify(
        { twitterImage: { publicUrl: 'https://c/x.jpg' }, media: [{ publicUrl: 'https://c/x.jpg' }] },
        null,
        2,
      ),
    )
    expect(findFileUrls(pretty)).toEqual([{ url: 'https://c/x.jpg', shown: true }])
  })

  it('ignores what is no string value, and unterminated or over-long strings', () => {
    expect(findFileUrls(bytes('{"publicUrl": 12, "x": "publicUrl", "publicUrl":"'))).toEqual([])
    expect(findFileUrls(bytes(`{"publicUrl":"https://c/${'a'.repeat(5000)}"}`))).toEqual([])
  })

  it('reads parsed data nested some thousand levels deep, on every Node.js release, up to the depth a page shows', () => {
    // JSON.stringify overflows the stack at such a depth on Node.js 20 to 24, not on 26: a CMS's initial data this
    // deep stopped the whole build on those releases with a bare 'Maximum call stack size exceeded'
    const nested = (inner: string): unknown => JSON.parse(`${'{"a":'.repeat(20_000)}${inner}${'}'.repeat(20_000)}`)
    const file = '{"publicUrl":"https://c/x.jpg"}'
    expect(findFileUrlsIn({ footer: nested('1'), logo: JSON.parse(file) })).toEqual([
      { url: 'https://c/x.jpg', shown: true },
    ])
    expect(findFileUrlsIn({ footer: nested(file) })).toEqual([])
  })
})

describe('policy and names', () => {
  const policy = createMediaPolicy({ apiBaseUrl: 'https://cms.example', hosts: ['media.example'] })
  it.each([
    ['https://cms.example/fileadmin/a.JPG?1', 'image'],
    ['https://media.example/b.webp', 'image'],
    ['https://cms.example/doc.pdf', 'file'],
    ['https://cms.example/x.svg', undefined],
    ['https://cms.example/x.html', undefined],
    ['https://cms.example/noextension', undefined],
    ['https://elsewhere.example/a.jpg', undefined],
    ['http://cms.example/a.jpg', undefined],
    ['https://user:pw@cms.example/a.jpg', undefined],
    ['javascript:alert(1)', undefined],
  ])('%s -> %s', (url, kind) => {
    expect(policy.classify(url)).toBe(kind)
  })
  it('makes safe file names', () => {
    expect(safeFileName('https://c/a/Team%20Photo%20(1).JPG')).toBe('Team-Photo-1.jpg')
    expect(safeFileName('https://c/a/..%2F..%2Fetc%2Fpasswd.pdf')).toBe('etc-passwd.pdf')
    expect(safeFileName('https://c/a/%E2%80%AE.jpg')).toBe('file.jpg')
  })
  it('keeps one dot in a file name, its extension: no server runs a copy as a script by an inner one', () => {
    expect(safeFileName('https://c/a/shell.php.jpg')).toBe('shell-php.jpg')
    expect(safeFileName('https://c/a/Annual.Report.2025.pdf')).toBe('Annual-Report-2025.pdf')
    expect(safeFileName('https://c/a/x.phtml.JPG')).toBe('x-phtml.jpg')
    expect(safeFileName('https://c/a/...jpg')).toBe('file.jpg')
  })
  it('names a file by the extension that took it, also when an encoded slash stands before it', () => {
    expect(createMediaPolicy({ apiBaseUrl: 'https://c', hosts: [] }).classify('https://c/a/x.svg%2F.png')).toBe('image')
    expect(safeFileName('https://c/a/x.svg%2F.png')).toBe('x-svg.png')
    expect(safeFileName('https://c/a/report%2F.pdf')).toBe('report.pdf')
  })
})

describe('sniffRaster', () => {
  it('knows images by their signature, nothing else', () => {
    expect(sniffRaster(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg')
    expect(sniffRaster(bytes('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp')
    expect(sniffRaster(bytes('\0\0\0\x1cftypavif'))).toBe('avif')
    expect(sniffRaster(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined()
    expect(sniffRaster(bytes('<html>'))).toBeUndefined()
    expect(contentTypeAgrees('image/png', 'jpeg')).toBe(false)
    expect(contentTypeAgrees('application/octet-stream', 'jpeg')).toBe(true)
  })

  // a previous build's media record names the file (untrusted): `x.constructor` claimed Object as its format
  it('knows the format a name claims by its raster extension only', () => {
    expect(claimedFormat('jpg')).toBe('jpeg')
    for (const extension of ['constructor', 'tostring', 'valueof', '__proto__', 'svg'])
      expect(claimedFormat(extension)).toBeUndefined()
  })

  it('knows an AVIF by a compatible brand when its major brand is another (mif1, as some encoders write)', () => {
    expect(sniffRaster(bytes('\0\0\0\x1cftypmif1\0\0\0\0mif1avifmiaf'))).toBe('avif')
    // a brand past the end of the ftyp box is not one of its brands; a HEIC photograph is no AVIF
    expect(sniffRaster(bytes('\0\0\0\x14ftypmif1\0\0\0\0mif1avif'))).toBeUndefined()
    expect(sniffRaster(bytes('\0\0\0\x18ftypheic\0\0\0\0mif1heic'))).toBeUndefined()
  })

  it('knows an animated PNG by its acTL chunk before the first IDAT', () => {
    /** A chunk's length and type, without its data. */
    const head = (type: string, size: number) => {
      const bytes = Buffer.alloc(8)
      bytes.writeUInt32BE(size)
      bytes.write(type, 4, 'latin1')
      return bytes
    }
    const chunk = (type: string, size: number) => Buffer.concat([head(type, size), Buffer.alloc(size + 4)])
    const png = (...chunks: Buffer[]) =>
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks])
    expect(isAnimatedPng(png(chunk('IHDR', 13), chunk('acTL', 8), chunk('IDAT', 20)))).toBe(true)
    expect(isAnimatedPng(png(chunk('IHDR', 13), chunk('IDAT', 20), chunk('acTL', 8)))).toBe(false)
    expect(isAnimatedPng(png(chunk('IHDR', 13), chunk('IDAT', 20)))).toBe(false)
    // cut short, or a chunk length past the end
    expect(isAnimatedPng(png(chunk('IHDR', 13)).subarray(0, 20))).toBe(false)
    expect(isAnimatedPng(png(head('IHDR', 0x7fffffff), head('acTL', 8)))).toBe(false)
  })
})

describe('planVariants', () => {
  it('caps widths at the original width and ends with the original format', () => {
    expect(planVariants(1000, 600, 'jpeg', [400, 800, 1200, 1600])).toMatchObject({
      widths: [400, 800, 1000],
      formats: ['avif', 'webp', 'jpeg'],
    })
    expect(planVariants(300, 200, 'png', [400, 800])?.widths).toEqual([300])
    expect(planVariants(300, 200, 'gif', [400])).toBeUndefined()
    expect(planVariants(1000, 600, 'jpeg', [400])?.digest).not.toBe(planVariants(1000, 600, 'jpeg', [400, 800])?.digest)
  })

  it('caps widths where a tall image would be taller than AVIF and WebP hold (16383 pixels)', () => {
    expect(planVariants(800, 32766, 'png', [400, 800])?.widths).toEqual([400])
    expect(planVariants(800, 20000, 'jpeg', [400, 800, 1200])?.widths).toEqual([400, 655])
    expect(planVariants(1, 20000, 'png', [400])).toBeUndefined()
  })
})

describe('the media record read back from a previous output', () => {
  let dir: string
  const API_ORIGIN = 'https://cms.example'
  const entry = {
    url: 'https://cms.example/a.jpg',
    hash: 'ab'.repeat(10),
    name: 'a.jpg',
    size: 10,
    kind: 'image',
    etag: '"x"',
  }
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-media-record-'))
    await mkdir(join(dir, '_site/builds'), { recursive: true })
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))
  const write = (text: string) => writeFile(join(dir, MEDIA_RECORD_FILE), text)

  it('reads a good record and leaves out each entry that is not well formed', async () => {
    await write(
      JSON.stringify({
        version: 2,
        entries: [
          entry,
          { ...entry, url: 'file:///etc/passwd' },
          { ...entry, url: 'https://c/b.jpg', name: '../../x' },
          { ...entry, url: 'https://c/c.jpg', etag: 'a\r\nb' },
          { ...entry, url: 'https://c/d.jpg', variants: { digest: 'zz', widths: [1], formats: ['gif'] } },
          { ...entry, url: 'https://c/e.jpg', sizeFrom: 'pixels' },
          { ...entry, url: 'https://c/f.jpg', animated: 'yes' },
        ],
      }),
    )
    const record = await readMediaRecord(dir, API_ORIGIN)
    expect([...record.keys()]).toEqual([entry.url])
    // the record is published: a file of the API's origin is kept by its path (the CMS's address is not public)
    const stored = JSON.parse(serializeRecord(record.values(), API_ORIGIN)).entries[0]
    expect(stored.url).toBe('/a.jpg')
    expect(checkEntry(stored)).toEqual({ ...entry, url: '/a.jpg' })
    // an entry read back writes the bytes it was written with, whatever order its keys came in
    const fresh = {
      ...entry,
      width: 10,
      height: 5,
      sizeFrom: 'header',
      animated: true,
      variants: { widths: [4], formats: ['avif' as const], digest: 'ab' },
    }
    const text = serializeRecord([fresh as never], API_ORIGIN)
    expect(serializeRecord([checkEntry(JSON.parse(text).entries[0])!], API_ORIGIN)).toBe(text)
    expect(checkEntry(JSON.parse(text).entries[0])).toMatchObject({ sizeFrom: 'header', animated: true })
  })

  it('reads back each URL a build recorded, however the CMS spelt it', async () => {
    // a CMS base URL with a trailing slash names `https://cms.example//fileadmin/…`; a scheme may come in capitals
    const urls = [`${API_ORIGIN}//fileadmin/a.jpg`, 'HTTPS://media.example/b.jpg']
    await write(
      serializeRecord(
        urls.map((url) => ({ ...entry, url }) as never),
        API_ORIGIN,
      ),
    )
    // an entry not read back is fetched again, without validators, at every build
    expect([...(await readMediaRecord(dir, API_ORIGIN)).keys()].sort()).toEqual([...urls].sort())
  })

  it.each([
    ['not JSON', '{'],
    ['another version', JSON.stringify({ version: 3, entries: [entry] })],
    // its entries never say 'animated' (nor 'sizeFrom'): an animated image it resized into stills would be kept so
    ['of an engine before entries said whether an image is animated', JSON.stringify({ version: 1, entries: [entry] })],
    ['no list', JSON.stringify({ version: 2, entries: {} })],
  ])('is empty for a record that is %s', async (_what, text) => {
    await write(text)
    expect((await readMediaRecord(dir, API_ORIGIN)).size).toBe(0)
  })

  it('is empty for a symbolic link, a folder or no record at all', async () => {
    const file = join(dir, MEDIA_RECORD_FILE)
    await rm(file, { force: true })
    expect((await readMediaRecord(dir, API_ORIGIN)).size).toBe(0)
    const target = join(dir, 'elsewhere.json')
    await writeFile(target, JSON.stringify({ version: 2, entries: [entry] }))
    await symlink(target, file)
    expect((await readMediaRecord(dir, API_ORIGIN)).size).toBe(0)
    await rm(file)
    await mkdir(file)
    expect((await readMediaRecord(dir, API_ORIGIN)).size).toBe(0)
    await rm(file, { recursive: true })
  })
})

describe('applyMedia', () => {
  const local = { url: '/_site/media/aa/a.jpg', local: { width: 10, height: 5 } }
  const page = (): PageData =>
    ({
      id: 7,
      meta: { ogImage: { publicUrl: 'https://c/a.jpg' } },
      media: [],
      content: {
        colPos0: [
          {
            id: 70,
            type: 'image',
            appearance: {},
            content: {
              gallery: {
                rows: { 1: { columns: { 1: { publicUrl: 'https://c/a.jpg', local: { variants: { base: 'x' } } } } } },
              },
            },
          },
          {
            id: 71,
            type: 'shortcut',
            appearance: {},
            content: {
              shortcut: [
                { id: 72, type: 'image', appearance: {}, content: { media: [{ publicUrl: 'https://c/bad.jpg' }] } },
              ],
            },
          },
        ],
      },
    }) as unknown as PageData

  it('points files at their copies, og:image at its absolute URL', () => {
    const data = page()
    expect(applyMedia(data, { 'https://c/a.jpg': local }, 'https://www.example')).toBeUndefined()
    expect(data.meta.ogImage?.publicUrl).toBe('https://www.example/_site/media/aa/a.jpg')
    const gallery = data.content.colPos0![0]!.content.gallery as {
      rows: Record<string, { columns: Record<string, unknown> }>
    }
    expect(gallery.rows['1']!.columns['1']).toEqual({ publicUrl: local.url, local: local.local })
  })

  it('names the element (inside a shortcut too) whose file could not be taken', () => {
    const failure = applyMedia(page(), { 'https://c/bad.jpg': { failed: 'MEDIA_HTTP', reason: 'HTTP 404' } }, undefined)
    expect(failure).toEqual({ kind: 'MEDIA_HTTP', reason: 'HTTP 404', elementUid: 72 })
  })

  // A file named as a member of Object found that member among the copies: the page failed to
  // render with "Cannot read properties of undefined (reading 'variants')", a share image became `…undefined`.
  it('leaves a file whose URL is named as a member of Object as it is', () => {
    const data = page()
    const element = data.content.colPos0![0]!
    element.content.media = ['toString', '__proto__', 'constructor'].map((publicUrl) => ({ publicUrl }))
    data.seo = { meta: [{ property: 'og:image', content: 'valueOf' }] } as PageData['seo']
    expect(applyMedia(data, { 'https://c/a.jpg': local, 'https://c/bad.jpg': local }, 'https://www.example')).toBe(
      undefined,
    )
    expect(element.content.media).toEqual([
      { publicUrl: 'toString' },
      { publicUrl: '__proto__' },
      { publicUrl: 'constructor' },
    ])
    expect(data.seo?.meta?.[0]?.content).toBe('valueOf')
  })
})

describe('Image', () => {
  it('renders variants as a picture with a source per format', () => {
    const file = {
      publicUrl: '/_site/media/0123456789abcdef0123/a.jpg',
      properties: { alternative: 'A', dimensions: { width: 1000, height: 500 } },
      local: {
        variants: {
          base: '/_site/media/0123456789abcdef0123/a-12345678',
          widths: [400, 1000],
          formats: ['avif', 'webp', 'jpg'],
        },
      },
    }
    const html = renderToStaticMarkup(<Image file={file} sizes="(min-width: 48rem) 50vw, 100vw" />)
    expect(html).toBe(
      '<picture><source type="image/avif" srcSet="/_site/media/0123456789abcdef0123/a-12345678-400w.avif 400w, /_site/media/0123456789abcdef0123/a-12345678-1000w.avif 1000w" sizes="(min-width: 48rem) 50vw, 100vw"/>' +
        '<source type="image/webp" srcSet="/_site/media/0123456789abcdef0123/a-12345678-400w.webp 400w, /_site/media/0123456789abcdef0123/a-12345678-1000w.webp 1000w" sizes="(min-width: 48rem) 50vw, 100vw"/>' +
        '<img src="/_site/media/0123456789abcdef0123/a-12345678-1000w.jpg" srcSet="/_site/media/0123456789abcdef0123/a-12345678-400w.jpg 400w, /_site/media/0123456789abcdef0123/a-12345678-1000w.jpg 1000w" alt="A" width="1000" height="500" loading="lazy" decoding="async" sizes="(min-width: 48rem) 50vw, 100vw"/></picture>',
    )
  })

  it.each([
    ['another origin', { base: 'https://evil.example/x', widths: [1], formats: ['jpg'] }],
    ['a path outside the media folder', { base: '/_site/media/../../x', widths: [1], formats: ['jpg'] }],
    ['a format it does not know', { base: '/_site/media/0123456789abcdef/a', widths: [1], formats: ['svg'] }],
    // named as a member of Object: once taken as known, a <source> without a type named a file no build writes
    [
      'a format named constructor',
      { base: '/_site/media/0123456789abcdef/a', widths: [1], formats: ['constructor', 'jpg'] },
    ],
    ['a format named toString', { base: '/_site/media/0123456789abcdef/a', widths: [1], formats: ['toString', 'jpg'] }],
    [
      'widths that are no numbers',
      { base: '/_site/media/0123456789abcdef/a', widths: ['1 1w, javascript:x'], formats: ['jpg'] },
    ],
  ])('ignores variants the API sends pointing at %s', (_what, variants) => {
    const html = renderToStaticMarkup(
      <Image file={{ publicUrl: 'https://cms.example/a.jpg', local: { variants } as never }} />,
    )
    expect(html).toBe('<img src="https://cms.example/a.jpg" alt="" loading="lazy" decoding="async"/>')
  })
})

describe('media options', () => {
  it('defaults to optimize, and --media overrides the file', () => {
    const [site] = resolveSites({}, { apiBaseUrl: 'https://cms.example' }, 'test')
    expect(site!.media).toEqual({
      mode: 'optimize',
      hosts: [],
      widths: [400, 800, 1200, 1600],
      maxBytes: 50 * 1024 * 1024,
      limitInputPixels: 100_000_000,
    })
    const [linked] = resolveSites(
      { media: { mode: 'copy' } },
      { apiBaseUrl: 'https://cms.example', media: 'link' },
      'test',
    )
    expect(linked!.media.mode).toBe('link')
  })

  it('names every bad media option at once', async () => {
    const { validateUserConfig } = await import('../../../src/config/validate.js')
    const issues = validateUserConfig({
      media: { mode: 'fast', hosts: ['https://cdn.example'], widths: [0, 400], maxBytes: -1, limitInputPixels: 1.5 },
    })
    expect(issues.map((issue) => issue.path)).toEqual([
      'media.mode',
      'media.hosts',
      'media.widths',
      'media.maxBytes',
      'media.limitInputPixels',
    ])
    expect(() => resolveSites({}, { apiBaseUrl: 'https://cms.example', media: 'fast' as never }, 'test')).toThrow(
      /--media/,
    )
  })
})
