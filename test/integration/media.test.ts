/**
 * Media (`media: 'optimize'` and `'copy'`): the demo API's photographs taken into the output with their variants,
 * a rebuild that sends no file body and encodes nothing, and each kind of bad file failing the build with its
 * page, element and URL while the previous output stays as it was.
 */
import { cp, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32, deflateSync } from 'node:zlib'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { UserConfig } from '../../src/config/types.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { type BuildTools, buildSite, diffTrees, loadBuildTools, REPO_ROOT, readTree } from './build-helpers.js'

/** Five photo pages of three photographs each, small enough to encode fast. */
const PHOTO = { count: 15, width: 600, height: 400 }
const pageUid = (page: number) => 90_000 + page
const elementUid = (page: number) => 900_000 + page
/** Larger than the test's `media.maxBytes`, a photograph is not. */
const MAX_BYTES = 1_000_000

let api: DemoApi
let tools: BuildTools
let tmp: string

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'site-media-'))
  // the demo content, plus files that lie about what they are, and one a build must not resize
  const content = join(tmp, 'content')
  await cp(join(REPO_ROOT, 'demo/content'), content, { recursive: true })
  await writeFile(join(content, 'fileadmin/images/not-a-photo.jpg'), '<html><script>alert(1)</script></html>')
  await writeFile(join(content, 'fileadmin/images/bomb.png'), bombPng(30_000, 30_000))
  await writeFile(join(content, 'fileadmin/images/page.html'), '<script>alert(1)</script>')
  await writeFile(
    join(content, 'fileadmin/images/big.jpg'),
    Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(MAX_BYTES)]),
  )
  // an animated WebP of three frames
  const frame = (red: number) =>
    sharp({ create: { width: 200, height: 200, channels: 3, background: { r: red, g: 0, b: 0 } } })
      .png()
      .toBuffer()
  const frames = await Promise.all([0, 120, 240].map(frame))
  const animated = await sharp(frames, { join: { animated: true } })
    .webp({ loop: 0 })
    .toBuffer()
  await writeFile(join(content, 'fileadmin/images/anim.webp'), animated)
  // a JPEG cut in half: its header reads, its pixels do not
  const whole = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#357' } })
    .jpeg()
    .toBuffer()
  await writeFile(join(content, 'fileadmin/images/truncated.jpg'), whole.subarray(0, whole.length >> 1))
  ;[api, tools] = await Promise.all([startDemoApi({ contentDir: content, photos: PHOTO }), loadBuildTools()])
}, 120_000)

afterAll(async () => {
  await api?.close()
  await rm(tmp, { recursive: true, force: true })
})

/** One PNG chunk: its length, type, data and CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/**
 * An animated PNG (APNG) of `colors.length` frames of `width` x `height` RGB pixels, each of one color:
 * sharp reads its first frame only and writes none.
 */
function animatedPng(width: number, height: number, colors: Array<[number, number, number]>): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  const actl = Buffer.alloc(8)
  actl.writeUInt32BE(colors.length, 0) // frames, played forever
  const pixels = (color: [number, number, number]) => {
    const row = Buffer.concat([Buffer.from([0]), ...Array.from({ length: width }, () => Buffer.from(color))])
    return deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))
  }
  const chunks = [chunk('IHDR', ihdr), chunk('acTL', actl)]
  let sequence = 0
  colors.forEach((color, frame) => {
    const fctl = Buffer.alloc(26)
    fctl.writeUInt32BE(sequence++, 0)
    fctl.writeUInt32BE(width, 4)
    fctl.writeUInt32BE(height, 8)
    fctl.writeUInt16BE(1, 20) // a delay of 1/2 s
    fctl.writeUInt16BE(2, 22)
    chunks.push(chunk('fcTL', fctl))
    if (frame === 0) chunks.push(chunk('IDAT', pixels(color)))
    else {
      const number = Buffer.alloc(4)
      number.writeUInt32BE(sequence++)
      chunks.push(chunk('fdAT', Buffer.concat([number, pixels(color)])))
    }
  })
  return Buffer.concat([PNG_SIGNATURE, ...chunks, chunk('IEND', Buffer.alloc(0))])
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** A PNG of `width` x `height` pixels in its header and a few bytes of pixel data: what a decompression bomb declares. */
function bombPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const fileRequests = (from: number) =>
  api.requests.slice(from).filter((request) => request.path.startsWith('/fileadmin/'))

const user = { baseUrl: 'https://www.amberline.example', media: { maxBytes: MAX_BYTES } }

/** Builds into `outDir` with no failure: its result, and the requests it made for the CMS file at `path`. */
async function buildAsking(path: string, options: { outDir: string; user: UserConfig }) {
  const from = api.requests.length
  const result = await buildSite({ apiUrl: api.url, tools, ...options })
  expect(result.failures).toEqual([])
  return { result, asked: fileRequests(from).filter((request) => request.path === path) }
}

describe('media: optimize', () => {
  let out: string
  beforeAll(() => {
    out = join(tmp, 'optimize')
    // a page showing a file no static host should serve from the site's origin
    api.setEdits([
      { path: '/photos/5', find: '/fileadmin/photos/photo-15.jpg', replace: '/fileadmin/images/page.html' },
    ])
  })

  it('takes the photographs into the output with AVIF, WebP and JPEG variants capped at their width', async () => {
    const result = await buildSite({ apiUrl: api.url, outDir: out, tools, user })
    expect(result.failures).toEqual([])
    const html = await readFile(join(out, 'photos/1/index.html'), 'utf8')
    const pictures = html.match(/<picture>.*?<\/picture>/g) ?? []
    expect(pictures).toHaveLength(3)
    for (const picture of pictures) {
      expect(picture).toMatch(
        /<source type="image\/avif" srcSet="\/_site\/media\/[0-9a-f]{20}\/photo-\d-[0-9a-f]{8}-400w\.avif 400w, [^"]*-600w\.avif 600w"/,
      )
      expect(picture).toContain('type="image/webp"')
      expect(picture).toMatch(
        /<img src="\/_site\/media\/[0-9a-f]{20}\/photo-\d-[0-9a-f]{8}-600w\.jpg" srcSet="[^"]*-400w\.jpg 400w/,
      )
      expect(picture).toContain('width="600" height="400"')
      expect(picture).toContain('sizes="100vw"')
      expect(picture).not.toContain('/fileadmin/')
    }
    const tree = await readTree(out)
    const media = [...tree.keys()].filter((path) => path.startsWith('_site/media/'))
    // 14 originals (the 15th is swapped for page.html), each with (400, 600) x (avif, webp, jpg)
    expect(media.filter((path) => /photo-\d+\.jpg$/.test(path))).toHaveLength(14)
    expect(media.filter((path) => /-\d+w\.(avif|webp|jpg)$/.test(path))).toHaveLength(14 * 6)
    for (const path of media.filter((p) => p.endsWith('-400w.avif')).slice(0, 2)) {
      const meta = await sharp(tree.get(path)!).metadata()
      expect([meta.format, meta.width]).toEqual(['heif', 400])
    }
    // SVG illustrations and HTML stay links to the CMS; downloads are copied with their names
    expect(media.some((path) => path.endsWith('.svg') || path.endsWith('.html'))).toBe(false)
    expect(await readFile(join(out, 'photos/5/index.html'), 'utf8')).toContain(
      `src="${api.url}/fileadmin/images/page.html"`,
    )
    const team = await readFile(join(out, 'about-us/team/index.html'), 'utf8')
    expect(team).toContain(`src="${api.url}/fileadmin/images/people/anna-kowalska.svg"`)
    expect(media.some((path) => path.endsWith('/amberline-company-profile.pdf'))).toBe(true)
    // og:image: the copy's absolute URL on baseUrl, never shrunk to variants
    const home = await readFile(join(out, 'index.html'), 'utf8')
    expect(home).toMatch(
      /<meta property="og:image" content="https:\/\/www\.amberline\.example\/_site\/media\/[0-9a-f]{20}\/amberline-share\.png"/,
    )
    expect(media.filter((path) => path.includes('amberline-share'))).toHaveLength(1)
    expect(result.media).toMatchObject({ encodedImages: 14, notModified: 0 })
  }, 300_000)

  it('rebuilds with nothing changed: conditional requests answered 304, nothing encoded, the same bytes', async () => {
    const before = await readTree(out)
    const from = api.requests.length
    const result = await buildSite({ apiUrl: api.url, outDir: out, tools, user })
    expect(result.failures).toEqual([])
    const requests = fileRequests(from)
    expect(requests.length).toBeGreaterThan(14)
    expect(requests.every((request) => request.headers['if-none-match'] !== undefined)).toBe(true)
    expect(result.media).toMatchObject({ fetched: 0, encodedImages: 0, variantsWritten: 0 })
    expect(result.media?.notModified).toBe(requests.length)
    expect(diffTrees(await readTree(out), before)).toEqual([])
  }, 300_000)

  it('a file event fetches that file again without validators, and rebuilds only the page that shows it', async () => {
    const before = await readTree(out)
    const from = api.requests.length
    const result = await buildSite({
      apiUrl: api.url,
      outDir: out,
      tools,
      user,
      only: [`file:${api.url}/fileadmin/photos/photo-4.jpg`],
    })
    expect(result.failures).toEqual([])
    const requests = api.requests.slice(from)
    const pages = requests.filter((request) => request.path.startsWith('/photos/')).map((request) => request.path)
    expect(pages).toEqual(['/photos/2'])
    const photo4 = fileRequests(from).filter((request) => request.path === '/fileadmin/photos/photo-4.jpg')
    expect(photo4).toHaveLength(1)
    expect(photo4[0]!.headers['if-none-match']).toBeUndefined()
    // the other photographs of that page are asked whether they changed; the same bytes: nothing is encoded
    expect(fileRequests(from).filter((request) => request.headers['if-none-match'] !== undefined)).toHaveLength(2)
    expect(result.media).toMatchObject({ fetched: 1, notModified: 2, encodedImages: 0 })
    expect(diffTrees(await readTree(out), before)).toEqual([])
  }, 300_000)

  it('takes the files its initial data and its 404 pages name too', async () => {
    const extraOut = join(tmp, 'initial-data')
    const photo = (n: number) =>
      JSON.stringify({
        publicUrl: `${api.url}/fileadmin/photos/photo-${n}.jpg`,
        properties: { alternative: `Photograph ${n}`, mimeType: 'image/jpeg', dimensions: { width: 600, height: 400 } },
      })
    // a footer contact block with a picture (as nuxt-typo3's theme has one), and a share image on the 404 page
    api.setEdits([
      {
        path: '/',
        query: 'type=834',
        find: '"header":"Where to find us"',
        replace: `"header":"Where to find us","image":[${photo(1)}]`,
      },
      { path: '/__site-404__', find: '"ogImage":null', replace: `"ogImage":${photo(2)}` },
    ])
    try {
      const result = await buildSite({ apiUrl: api.url, outDir: extraOut, tools, user })
      expect(result.failures).toEqual([])
      const tree = await readTree(extraOut)
      const initialData = [...tree.keys()].find((path) => /^_site\/data\/initial-en-/.test(path))!
      const footer = JSON.parse(tree.get(initialData)!.toString('utf8')).footerContactData.content.image[0]
      expect(footer.publicUrl).toMatch(/^\/_site\/media\/[0-9a-f]{20}\/photo-1\.jpg$/)
      expect(footer.local.variants.widths).toEqual([400, 600])
      expect(tree.has(footer.publicUrl.slice(1))).toBe(true)
      const notFound = tree.get('404.html')!.toString('utf8')
      expect(notFound).toMatch(
        /<meta property="og:image" content="https:\/\/www\.amberline\.example\/_site\/media\/[0-9a-f]{20}\/photo-2\.jpg"/,
      )
      expect(notFound).not.toContain('/fileadmin/')
      // a picture of the initial data that cannot be taken fails the build, named
      api.setFaults([{ path: '/fileadmin/photos/photo-1.jpg', kind: 'status404' }])
      const broken = await buildSite({ apiUrl: api.url, outDir: join(tmp, 'initial-data-broken'), tools, user })
      expect(broken.failures).toContainEqual(
        expect.objectContaining({ kind: 'MEDIA_HTTP', path: 'initial data (en)', elementUid: 9901 }),
      )
    } finally {
      api.setFaults([])
      api.setEdits([])
    }
  }, 300_000)

  it("under media 'copy', a share image's size read from its header is not kept for a page that shows the file", async () => {
    const copyOut = join(tmp, 'copy')
    const copy = { ...user, media: { ...user.media, mode: 'copy' as const } }
    const share = '/fileadmin/images/social/amberline-share.png'
    const recorded = async () =>
      JSON.parse(await readFile(join(copyOut, '_site/builds/media.json'), 'utf8')).entries.find(
        (entry: { url: string }) => entry.url === share,
      )
    expect((await buildSite({ apiUrl: api.url, outDir: copyOut, tools, user: copy })).failures).toEqual([])
    expect(await recorded()).toMatchObject({ width: 1200, height: 630, sizeFrom: 'header' })
    // the next build shows that file on a page: it is fetched again, without validators, and read by libvips
    api.setEdits([{ path: '/photos/1', find: '/fileadmin/photos/photo-1.jpg', replace: share }])
    try {
      const { asked } = await buildAsking(share, { outDir: copyOut, user: copy })
      expect(asked.map((request) => request.headers['if-none-match'])).toContain(undefined)
      const html = await readFile(join(copyOut, 'photos/1/index.html'), 'utf8')
      expect(html).toMatch(/<img src="\/_site\/media\/[0-9a-f]{20}\/amberline-share\.png"/)
      const entry = await recorded()
      expect(entry).toMatchObject({ width: 1200, height: 630 })
      expect(entry.sizeFrom).toBeUndefined()
    } finally {
      api.setEdits([])
    }
  }, 300_000)

  it("under media 'link', pages point at the CMS as before", async () => {
    const linkOut = join(tmp, 'link')
    const link = { ...user, media: { mode: 'link' as const } }
    const result = await buildSite({ apiUrl: api.url, outDir: linkOut, tools, user: link })
    expect(result.failures).toEqual([])
    expect(result.media).toBeUndefined()
    const html = await readFile(join(linkOut, 'photos/1/index.html'), 'utf8')
    expect(html).toContain(`src="${api.url}/fileadmin/photos/photo-1.jpg"`)
    expect(html).not.toContain('srcSet')
  }, 300_000)

  it('bad files fail the build, each naming its page, element and URL; the previous output stays as it was', async () => {
    const kept = await readTree(out)
    const swap = (page: number, photo: number, to: string) => ({
      path: `/photos/${page}`,
      find: `/fileadmin/photos/photo-${photo}.jpg`,
      replace: to,
    })
    api.setFaults([
      { path: '/fileadmin/photos/photo-2.jpg', kind: 'status404' },
      { path: '/fileadmin/photos/photo-5.jpg', kind: 'status500' },
    ])
    api.setEdits([
      swap(3, 8, '/fileadmin/images/not-a-photo.jpg'),
      swap(4, 11, '/fileadmin/images/bomb.png'),
      swap(5, 14, '/fileadmin/images/big.jpg'),
      // a share image is never decoded by the build, and is held to the limit all the same
      { path: '/', find: '/fileadmin/images/social/amberline-share.png', replace: '/fileadmin/images/bomb.png' },
    ])
    try {
      const result = await buildSite({ apiUrl: api.url, outDir: out, tools, user })
      const expected: Array<[number, string, string]> = [
        [1, 'MEDIA_HTTP', 'HTTP 404'],
        [2, 'MEDIA_HTTP', 'HTTP 500'],
        [3, 'MEDIA_TYPE_MISMATCH', 'not-a-photo.jpg'],
        [4, 'MEDIA_PIXEL_LIMIT', '30000x30000'],
        [5, 'MEDIA_TOO_LARGE', 'media.maxBytes'],
      ]
      for (const [page, kind, says] of expected) {
        const failure = result.failures.find((f) => f.path === `/photos/${page}`)
        expect(failure, kind).toMatchObject({ kind, pageUid: pageUid(page), elementUid: elementUid(page) })
        expect(failure?.reason).toContain(says)
        expect(failure?.reason).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/fileadmin\//)
      }
      const share = result.failures.find((f) => f.path === '/')
      expect(share).toMatchObject({ kind: 'MEDIA_PIXEL_LIMIT' })
      expect(share?.reason).toContain('the image is 30000x30000 pixels')
      expect(share?.reason).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/fileadmin\/images\/bomb\.png/)
      expect(diffTrees(await readTree(out), kept)).toEqual([])
    } finally {
      api.setFaults([])
      api.setEdits([])
    }
  }, 300_000)
})

/** Runs `check` while the demo API answers with `edits`, and without them after, whatever happened. */
async function withEdits(edits: Parameters<DemoApi['setEdits']>[0], check: () => Promise<void>): Promise<void> {
  api.setEdits(edits)
  try {
    await check()
  } finally {
    api.setEdits([])
  }
}

describe('media: a file event naming a picture of the initial data', () => {
  it('does not report the file as shown by no page: every page of its locale shows it', async () => {
    const out = join(tmp, 'initial-data-event')
    const footer = '/fileadmin/images/anim.webp'
    const picture = JSON.stringify({
      publicUrl: `${api.url}${footer}`,
      properties: { alternative: 'Footer', mimeType: 'image/webp', dimensions: { width: 200, height: 200 } },
    })
    await withEdits(
      [
        {
          path: '/',
          query: 'type=834',
          find: '"header":"Where to find us"',
          replace: `"header":"Where to find us","image":[${picture}]`,
        },
      ],
      async () => {
        expect((await buildSite({ apiUrl: api.url, outDir: out, tools, user })).failures).toEqual([])
        const nowhere = 'file:/fileadmin/nowhere.jpg'
        const result = await buildSite({ apiUrl: api.url, outDir: out, tools, user, only: [`file:${footer}`, nowhere] })
        expect(result.failures).toEqual([])
        expect(result.only?.unknownFiles).toEqual([nowhere])
        expect(result.notes.filter((note) => note.includes('no page of the previous build shows'))).toEqual([
          `--only ${nowhere}: no page of the previous build shows this file (nothing to rebuild for it)`,
        ])
      },
    )
  }, 300_000)
})

describe('media: an animated image', () => {
  it('is copied with its frames, never resized into still variants, and asked again with validators', async () => {
    const out = join(tmp, 'animated')
    await withEdits(
      [{ path: '/photos/1', find: '/fileadmin/photos/photo-1.jpg', replace: '/fileadmin/images/anim.webp' }],
      async () => {
        const first = await buildSite({ apiUrl: api.url, outDir: out, tools, user })
        expect(first.failures).toEqual([])
        const html = await readFile(join(out, 'photos/1/index.html'), 'utf8')
        const img = /<img[^>]*anim[^>]*>/.exec(html)?.[0] ?? ''
        expect(img).toMatch(/src="\/_site\/media\/[0-9a-f]{20}\/anim\.webp"/)
        expect(img).not.toContain('srcSet')
        const copies = [...(await readTree(out)).entries()].filter(([path]) => path.includes('/anim'))
        expect(copies.map(([path]) => path)).toEqual([expect.stringMatching(/\/anim\.webp$/)])
        expect((await sharp(copies[0]![1]).metadata()).pages).toBe(3)
        const { result: again, asked } = await buildAsking('/fileadmin/images/anim.webp', { outDir: out, user })
        expect(asked).toHaveLength(1)
        expect(asked[0]!.headers['if-none-match']).toBeDefined()
        expect(again.media).toMatchObject({ fetched: 0, encodedImages: 0 })
      },
    )
  }, 300_000)
})

describe('media: an animated PNG', () => {
  it('is copied with its frames, never resized into still variants of its first frame', async () => {
    const out = join(tmp, 'animated-png')
    const animated = '/fileadmin/images/spinner.png'
    await writeFile(
      join(tmp, 'content', animated),
      animatedPng(64, 48, [
        [255, 0, 0],
        [0, 0, 255],
      ]),
    )
    await api.reload()
    await withEdits([{ path: '/photos/1', find: '/fileadmin/photos/photo-1.jpg', replace: animated }], async () => {
      const result = await buildSite({ apiUrl: api.url, outDir: out, tools, user })
      expect(result.failures).toEqual([])
      const html = await readFile(join(out, 'photos/1/index.html'), 'utf8')
      const img = /<img[^>]*spinner[^>]*>/.exec(html)?.[0] ?? ''
      expect(img).toMatch(/src="\/_site\/media\/[0-9a-f]{20}\/spinner\.png"/)
      expect(img).not.toContain('srcSet')
      const copies = [...(await readTree(out)).keys()].filter((path) => path.includes('/spinner'))
      expect(copies).toEqual([expect.stringMatching(/\/spinner\.png$/)])
    })
  }, 300_000)
})

describe('media: a file one page shows and another shares', () => {
  it('is asked again with validators for both uses, never fetched whole', async () => {
    const out = join(tmp, 'shown-and-shared')
    // the home page's og:image, shown as a photograph too
    const share = '/fileadmin/images/social/amberline-share.png'
    await withEdits([{ path: '/photos/1', find: '/fileadmin/photos/photo-1.jpg', replace: share }], async () => {
      const first = await buildSite({ apiUrl: api.url, outDir: out, tools, user })
      expect(first.failures).toEqual([])
      expect(await readFile(join(out, 'photos/1/index.html'), 'utf8')).toMatch(/amberline-share-[0-9a-f]{8}-\d+w\.avif/)
      const { result: again, asked } = await buildAsking(share, { outDir: out, user })
      expect(asked.length).toBeGreaterThan(0)
      expect(asked.every((request) => request.headers['if-none-match'] !== undefined)).toBe(true)
      expect(again.media).toMatchObject({ fetched: 0, encodedImages: 0 })
    })
  }, 300_000)
  it('keeps the variants a kept page shows when an --only build asks again a page that only shares the file', async () => {
    const out = join(tmp, 'shared-only')
    const full = join(tmp, 'shared-full')
    const share = '/fileadmin/images/social/amberline-share.png'
    // no earlier build's files kept: the variants stay only if the build keeps them for /photos/1
    const single = { ...user, build: { keepBuilds: 1 } }
    // /photos/1 shows it and is kept; the home page, asked again, has it as its og:image only
    await withEdits([{ path: '/photos/1', find: '/fileadmin/photos/photo-1.jpg', replace: share }], async () => {
      expect((await buildSite({ apiUrl: api.url, outDir: out, tools, user: single })).failures).toEqual([])
      const only = await buildSite({ apiUrl: api.url, outDir: out, tools, user: single, only: ['/'] })
      expect(only.failures).toEqual([])
      expect((await buildSite({ apiUrl: api.url, outDir: full, tools, user: single })).failures).toEqual([])
    })
    // the build store lists the builds before it, which a fresh output has none of
    const differ = diffTrees(await readTree(out), await readTree(full))
    expect(differ.filter((path) => path !== '_site/builds/state.jsonl')).toEqual([])
  }, 300_000)
})

describe('media: a file event naming a processed image by its original', () => {
  it('fetches the files of the pages that show it again without validators, the processed one among them', async () => {
    const out = join(tmp, 'processed')
    // /photos/1 shows photo-1.jpg as the processed image of another file, which TYPO3's message names
    const original = '/fileadmin/originals/photo-1.jpg'
    await withEdits(
      [
        {
          path: '/photos/1',
          find: '"originalUrl":"/fileadmin/photos/photo-1.jpg"',
          replace: `"originalUrl":"${original}"`,
        },
      ],
      async () => {
        expect((await buildSite({ apiUrl: api.url, outDir: out, tools, user })).failures).toEqual([])
        const from = api.requests.length
        const result = await buildSite({ apiUrl: api.url, outDir: out, tools, user, only: [`file:${original}`] })
        expect(result.failures).toEqual([])
        const pages = api.requests.slice(from).filter((request) => request.path.startsWith('/photos/'))
        expect(pages.map((request) => request.path)).toEqual(['/photos/1'])
        const shown = fileRequests(from).filter((request) => request.path === '/fileadmin/photos/photo-1.jpg')
        expect(shown).toHaveLength(1)
        expect(shown[0]!.headers['if-none-match']).toBeUndefined()
      },
    )
  }, 300_000)
})

describe('media: an image that cannot be encoded', () => {
  it('fails every page that shows it, those rendered before the encoder found out too, naming page and element', async () => {
    const out = join(tmp, 'truncated')
    const truncated = '/fileadmin/images/truncated.jpg'
    await withEdits(
      [1, 2, 3].map((page) => ({
        path: `/photos/${page}`,
        find: `/fileadmin/photos/photo-${page * 3 - 2}.jpg`,
        replace: truncated,
      })),
      async () => {
        const result = await buildSite({ apiUrl: api.url, outDir: out, tools, user })
        const failures = result.failures.filter((failure) => failure.kind === 'MEDIA_ENCODE_FAILED')
        expect(failures.map((failure) => failure.path).sort()).toEqual(['/photos/1', '/photos/2', '/photos/3'])
        for (const failure of failures) {
          expect(failure.reason).toMatch(/the image cannot be encoded: .*truncated\.jpg\)$/)
          // where an editor finds it, as for a file that fails before its page is rendered
          const page = Number(failure.path.slice('/photos/'.length))
          expect(failure).toMatchObject({ status: 502, pageUid: pageUid(page), elementUid: elementUid(page) })
        }
      },
    )
  }, 300_000)
})

describe('media: the same bytes under two URLs', () => {
  it('are encoded once, each URL keeping its own variant files', async () => {
    const out = join(tmp, 'same-bytes')
    // photo-1's bytes under a name of their own, shown on /photos/2 instead of photo-4
    const again = '/fileadmin/images/photo-1-again.jpg'
    const bytes = await (await fetch(`${api.url}/fileadmin/photos/photo-1.jpg`)).arrayBuffer()
    await writeFile(join(tmp, 'content', again), Buffer.from(bytes))
    await api.reload()
    await withEdits([{ path: '/photos/2', find: '/fileadmin/photos/photo-4.jpg', replace: again }], async () => {
      const result = await buildSite({ apiUrl: api.url, outDir: out, tools, user })
      expect(result.failures).toEqual([])
      // 15 photographs shown, 14 contents: each encoded once, each URL's variants written
      expect(result.media).toMatchObject({ encodedImages: 14, variantsWritten: 15 * 6 })
      const html = await readFile(join(out, 'photos/2/index.html'), 'utf8')
      expect(html).toMatch(/photo-1-again-[0-9a-f]{8}-600w\.jpg/)
      const tree = await readTree(out)
      const variantsOf = (name: string) =>
        new Map(
          [...tree.entries()].flatMap(([path, file]) => {
            const match = new RegExp(`^_site/media/([0-9a-f]{20})/${name}-[0-9a-f]{8}-(\\d+w\\.\\w+)$`).exec(path)
            return match ? [[`${match[1]} ${match[2]}`, file] as const] : []
          }),
        )
      const first = variantsOf('photo-1')
      expect(first.size).toBe(6)
      expect(variantsOf('photo-1-again')).toEqual(first)
    })
  }, 300_000)
})

describe('media: an image taller than AVIF and WebP hold at its own width', () => {
  it('gets variants as wide as keep them within 16383 pixels, and the build does not fail', async () => {
    const out = join(tmp, 'tall')
    // a long infographic: 13.6 megapixels, under the pixel limit, 17000 pixels tall
    const tall = '/fileadmin/images/infographic.png'
    const png = await sharp({ create: { width: 800, height: 17_000, channels: 3, background: '#468' } })
      .png()
      .toBuffer()
    await writeFile(join(tmp, 'content', tall), png)
    await api.reload()
    await withEdits([{ path: '/photos/1', find: '/fileadmin/photos/photo-1.jpg', replace: tall }], async () => {
      const result = await buildSite({ apiUrl: api.url, outDir: out, tools, user })
      expect(result.failures).toEqual([])
      const html = await readFile(join(out, 'photos/1/index.html'), 'utf8')
      expect(html).toMatch(/infographic-[0-9a-f]{8}-770w\.avif 770w/)
      const variants = [...(await readTree(out)).entries()].filter(([path]) => /\/infographic-.*w\.\w+$/.test(path))
      expect(variants).toHaveLength(6)
      for (const [, bytes] of variants) expect((await sharp(bytes).metadata()).height).toBeLessThanOrEqual(16_383)
    })
  }, 300_000)
})

describe('media: a record changed since its build wrote it', () => {
  it("is not read: a URL's entry forged to name another file's copy does not make a page show that file", async () => {
    const out = join(tmp, 'forged-record')
    expect((await buildSite({ apiUrl: api.url, outDir: out, tools, user })).failures).toEqual([])
    const page = join(out, 'photos/1/index.html')
    const html = await readFile(page, 'utf8')
    expect(html).toMatch(/photo-1-[0-9a-f]{8}-600w\.jpg/)
    // photo-1's entry names photo-2's copy and variants, all in the output, and keeps photo-1's validators: the
    // CMS answers 304 to them
    const file = join(out, '_site/builds/media.json')
    const record = JSON.parse(await readFile(file, 'utf8'))
    const entryOf = (n: number) =>
      record.entries.find((entry: { url: string }) => entry.url.endsWith(`/photo-${n}.jpg`))
    const { url, etag, lastModified } = entryOf(1)
    Object.assign(entryOf(1), entryOf(2), { url, etag, lastModified })
    await writeFile(file, JSON.stringify(record))
    const result = await buildSite({ apiUrl: api.url, outDir: out, tools, user })
    expect(result.failures).toEqual([])
    expect(await readFile(page, 'utf8')).toBe(html)
  }, 300_000)
})

describe('media: a file of a page an --only build keeps, changed or gone from the output since', () => {
  it('is taken again with the page that shows it, so that no kept page points at a file the output lacks', async () => {
    const out = join(tmp, 'kept-page-files')
    expect((await buildSite({ apiUrl: api.url, outDir: out, tools, user })).failures).toEqual([])
    const built = await readTree(out)
    const pathOf = (pattern: RegExp) => [...built.keys()].find((path) => pattern.test(path))!
    // photographs 4 and 5 are shown by /photos/2, which `--only /photos/1` keeps as it is
    await writeFile(join(out, pathOf(/\/photo-4-[0-9a-f]{8}-400w\.webp$/)), 'not the variant')
    await rm(join(out, pathOf(/\/photo-5\.jpg$/)))
    const from = api.requests.length
    const result = await buildSite({ apiUrl: api.url, outDir: out, tools, user, only: ['/photos/1'] })
    expect(result.failures).toEqual([])
    const pages = api.requests.slice(from).filter((request) => request.path.startsWith('/photos/'))
    expect(pages.map((request) => request.path).sort()).toEqual(['/photos/1', '/photos/2'])
    expect(diffTrees(await readTree(out), built)).toEqual([])
  }, 300_000)
})

describe('media: a file touched on the CMS, its bytes unchanged', () => {
  it('is recorded with the Last-Modified the 304 sends, as a fresh build records it', async () => {
    const out = join(tmp, 'touched')
    const fresh = join(tmp, 'touched-fresh')
    expect((await buildSite({ apiUrl: api.url, outDir: out, tools, user })).failures).toEqual([])
    // saved again on the CMS: a later modification time, the same bytes and so the same ETag
    const file = join(tmp, 'content/fileadmin/documents/amberline-company-profile.pdf')
    const later = new Date('2030-01-01T00:00:00Z')
    await utimes(file, later, later)
    const again = await buildSite({ apiUrl: api.url, outDir: out, tools, user })
    expect(again.failures).toEqual([])
    expect(again.media?.fetched).toBe(0)
    expect((await buildSite({ apiUrl: api.url, outDir: fresh, tools, user })).failures).toEqual([])
    const record = (dir: string) => readFile(join(dir, '_site/builds/media.json'), 'utf8')
    expect(await record(out)).toContain(later.toUTCString())
    expect(await record(out)).toBe(await record(fresh))
  }, 300_000)
})
