/**
 * Media (`media: 'optimize'` and `'copy'`): the demo API's photographs taken into the output with their variants,
 * a rebuild that sends no file body and encodes nothing, and each kind of bad file failing the build with its
 * page, element and URL while the previous output stays as it was.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { type BuildTools, buildSite, loadBuildTools, REPO_ROOT, readTree } from './build-helpers.js'

const PHOTO = { count: 3, width: 1000, height: 667 }
const PAGE_UID = 90_001
const ELEMENT_UID = 900_001

let api: DemoApi
let tools: BuildTools
let tmp: string

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'site-media-'))
  // the demo content, plus files that lie about what they are
  const content = join(tmp, 'content')
  await cp(join(REPO_ROOT, 'demo/content'), content, { recursive: true })
  await writeFile(join(content, 'fileadmin/images/not-a-photo.jpg'), '<html><script>alert(1)</script></html>')
  await writeFile(join(content, 'fileadmin/images/bomb.png'), bombPng(30_000, 30_000))
  await writeFile(join(content, 'fileadmin/images/page.html'), '<script>alert(1)</script>')
  ;[api, tools] = await Promise.all([startDemoApi({ contentDir: content, photos: PHOTO }), loadBuildTools()])
}, 120_000)

afterAll(async () => {
  await api?.close()
  await rm(tmp, { recursive: true, force: true })
})

/** A PNG of `width` x `height` pixels in its header and a few bytes of pixel data: what a decompression bomb declares. */
function bombPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const fileRequests = (from: number) =>
  api.requests.slice(from).filter((request) => request.path.startsWith('/fileadmin/'))

describe('media: optimize', () => {
  let out: string
  beforeAll(async () => {
    out = join(tmp, 'optimize')
  })

  it('takes the photographs into the output with AVIF, WebP and JPEG variants capped at their width', async () => {
    const result = await buildSite({ apiUrl: api.url, outDir: out, tools })
    expect(result.failures).toEqual([])
    const html = await readFile(join(out, 'photos/1/index.html'), 'utf8')
    const pictures = html.match(/<picture>.*?<\/picture>/g) ?? []
    expect(pictures).toHaveLength(3)
    for (const picture of pictures) {
      expect(picture).toMatch(
        /<source type="image\/avif" srcSet="\/_site\/media\/[0-9a-f]{20}\/photo-\d-[0-9a-f]{8}-400w\.avif 400w, [^"]*-1000w\.avif 1000w"/,
      )
      expect(picture).toContain('type="image/webp"')
      expect(picture).toMatch(
        /<img src="\/_site\/media\/[0-9a-f]{20}\/photo-\d-[0-9a-f]{8}-1000w\.jpg" srcSet="[^"]*-400w\.jpg 400w/,
      )
      expect(picture).toContain('width="1000" height="667"')
      expect(picture).toContain('sizes="100vw"')
      expect(picture).not.toContain('/fileadmin/')
    }
    const tree = await readTree(out)
    const media = [...tree.keys()].filter((path) => path.startsWith('_site/media/'))
    // 3 originals, 3 x (400, 800, 1000) x (avif, webp, jpg), the PDF downloads and the share image
    expect(media.filter((path) => /photo-\d\.jpg$/.test(path))).toHaveLength(3)
    expect(media.filter((path) => /-\d+w\.(avif|webp|jpg)$/.test(path))).toHaveLength(27)
    expect(media.some((path) => path.endsWith('.svg'))).toBe(false)
    for (const path of media.filter((p) => p.endsWith('-800w.avif'))) {
      const meta = await sharp(tree.get(path)!).metadata()
      expect([meta.format, meta.width]).toEqual(['heif', 800])
    }
    // the SVG illustrations stay links to the CMS; the downloads are copied with their names
    const team = await readFile(join(out, 'about-us/team/index.html'), 'utf8')
    expect(team).toContain(`src="${api.url}/fileadmin/images/people/anna-kowalska.svg"`)
    expect(media.some((path) => path.endsWith('/amberline-company-profile.pdf'))).toBe(true)
    // og:image: the copy's absolute URL on baseUrl, never shrunk to variants
    const home = await readFile(join(out, 'index.html'), 'utf8')
    expect(home).toMatch(
      /<meta property="og:image" content="https:\/\/www\.amberline\.example\/_site\/media\/[0-9a-f]{20}\/amberline-share\.png"/,
    )
    expect(result.media).toMatchObject({ encodedImages: 3, notModified: 0 })
  }, 180_000)

  it('rebuilds with nothing changed: conditional requests answered 304, nothing encoded, the same bytes', async () => {
    const before = await readTree(out)
    const from = api.requests.length
    const result = await buildSite({ apiUrl: api.url, outDir: out, tools })
    expect(result.failures).toEqual([])
    const requests = fileRequests(from)
    expect(requests.length).toBeGreaterThan(0)
    expect(requests.every((request) => request.headers['if-none-match'] !== undefined)).toBe(true)
    expect(result.media).toMatchObject({ fetched: 0, encodedImages: 0, variantsWritten: 0 })
    expect(result.media?.notModified).toBe(requests.length)
    const after = await readTree(out)
    const changed = [...after].filter(([path, bytes]) => !before.get(path)?.equals(bytes)).map(([path]) => path)
    expect(changed.filter((path) => path.startsWith('_site/media/') || path.endsWith('.html'))).toEqual([])
  }, 180_000)

  it('keeps the copy under link mode nowhere: media "link" points at the CMS as before', async () => {
    const linkOut = join(tmp, 'link')
    const result = await buildSite({
      apiUrl: api.url,
      outDir: linkOut,
      tools,
      user: { baseUrl: 'https://www.amberline.example', media: { mode: 'link' } },
    })
    expect(result.failures).toEqual([])
    expect(result.media).toBeUndefined()
    const html = await readFile(join(linkOut, 'photos/1/index.html'), 'utf8')
    expect(html).toContain(`src="${api.url}/fileadmin/photos/photo-1.jpg"`)
    expect(html).not.toContain('srcSet')
  }, 180_000)
})

describe('media: bad files fail the build, naming page, element and URL, and leave the output as it was', () => {
  let out: string
  let kept: Map<string, Buffer>
  beforeAll(async () => {
    out = join(tmp, 'bad')
    const first = await buildSite({
      apiUrl: api.url,
      outDir: out,
      tools,
      user: { baseUrl: 'https://x.example', media: { mode: 'copy' } },
    })
    expect(first.failures).toEqual([])
    kept = await readTree(out)
  }, 180_000)

  const swapPhoto = (to: string) =>
    api.setEdits([{ path: '/photos/1', find: '/fileadmin/photos/photo-2.jpg', replace: to }])

  const cases: Array<[string, () => void, Record<string, unknown> | undefined, string]> = [
    [
      'MEDIA_HTTP',
      () => api.setFaults([{ path: '/fileadmin/photos/photo-2.jpg', kind: 'status404' }]),
      undefined,
      'HTTP 404',
    ],
    [
      'MEDIA_HTTP',
      () => api.setFaults([{ path: '/fileadmin/photos/photo-2.jpg', kind: 'status500' }]),
      undefined,
      'HTTP 500',
    ],
    ['MEDIA_TYPE_MISMATCH', () => swapPhoto('/fileadmin/images/not-a-photo.jpg'), undefined, 'not-a-photo.jpg'],
    ['MEDIA_PIXEL_LIMIT', () => swapPhoto('/fileadmin/images/bomb.png'), undefined, '30000x30000'],
    ['MEDIA_TOO_LARGE', () => {}, { maxBytes: 10_000 }, 'media.maxBytes'],
  ]

  it.each(cases)(
    '%s (%s)',
    async (kind, arrange, media, says) => {
      api.setFaults([])
      api.setEdits([])
      arrange()
      try {
        const result = await buildSite({
          apiUrl: api.url,
          outDir: out,
          tools,
          user: { baseUrl: 'https://x.example', media: { mode: 'copy', ...media } },
        })
        const failure = result.failures.find((f) => f.path === '/photos/1')
        expect(failure).toMatchObject({ kind, pageUid: PAGE_UID, elementUid: ELEMENT_UID })
        expect(failure?.reason).toContain(says)
        expect(failure?.reason).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/fileadmin\//)
        expect(await readTree(out)).toEqual(kept)
      } finally {
        api.setFaults([])
        api.setEdits([])
      }
    },
    180_000,
  )

  it('an HTML file on the CMS stays a link: never copied to run on the site origin', async () => {
    api.setEdits([{ path: '/photos/1', find: '/fileadmin/photos/photo-2.jpg', replace: '/fileadmin/images/page.html' }])
    try {
      const htmlOut = join(tmp, 'html')
      const user = { baseUrl: 'https://x.example', media: { mode: 'copy' as const } }
      const result = await buildSite({ apiUrl: api.url, outDir: htmlOut, tools, user })
      expect(result.failures).toEqual([])
      const tree = await readTree(htmlOut)
      expect([...tree.keys()].some((path) => path.endsWith('.html') && path.startsWith('_site/media/'))).toBe(false)
    } finally {
      api.setEdits([])
    }
  }, 180_000)
})
