/**
 * `site serve`'s handler, called with a Request (no socket), on files written to a
 * temporary folder: streaming, Range, conditional requests, nosniff, hidden paths.
 */
import { existsSync, truncateSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readlink, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStaticHandler } from '../../src/serve/handler.js'

const BIG_BYTES = 8 * 1024 * 1024
/** A binary file whose every byte says where it is (byte i is i mod 251), so any range is checkable. */
const big = Buffer.alloc(BIG_BYTES)
for (let i = 0; i < BIG_BYTES; i++) big[i] = i % 251
const page = `<!doctype html><title>Big page</title>${'<p>Amberline builds software.</p>'.repeat(2000)}`
const MTIME = new Date('2026-03-01T10:00:00Z')

const files: Record<string, string | Buffer> = {
  'index.html': '<!doctype html><title>Home</title>',
  '404.html': '<!doctype html><title>Not found</title>',
  'pl/404.html': '<!doctype html><title>Nie znaleziono</title>',
  'video.bin': big,
  'big/index.html': page,
  'empty.txt': '',
  '.env': 'SECRET=1',
  '.git/config': '[core] secret',
  '.git/404.html': 'secret 404 page',
  '.hidden/index.html': 'secret index',
  'pl/.secret': 'secret',
  '.well-known/security.txt': 'Contact: mailto:security@example.com',
  '.well-known/.private': 'secret',
  _redirects: '/old /index.html 301\n/stare-usługi /usługi 301\n',
}

let dir: string
let handle: (request: Request) => Promise<Response>
const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  handle(new Request(`http://localhost${path}`, { method, headers }))
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer())

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-serve-handler-'))
  for (const [name, contents] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true })
    await writeFile(join(dir, name), contents)
    await utimes(join(dir, name), MTIME, MTIME)
  }
  handle = createStaticHandler({ dir })
})
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('file bodies are streamed', () => {
  it('hands a large file over in small chunks, not as one buffer read whole', async () => {
    const res = await get('/video.bin')
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    const first = await reader.read()
    expect(first.value!.byteLength).toBeGreaterThan(0)
    expect(first.value!.byteLength).toBeLessThanOrEqual(1024 * 1024)
    expect(Buffer.from(first.value!).equals(big.subarray(0, first.value!.byteLength))).toBe(true)
    await reader.cancel()
  })

  /** How many descriptors this process holds open on `name` of the served folder. */
  const openOn = async (name: string) => {
    let count = 0
    for (const fd of await readdir('/proc/self/fd'))
      if ((await readlink(`/proc/self/fd/${fd}`).catch(() => '')) === join(dir, name)) count++
    return count
  }

  it.runIf(existsSync('/proc/self/fd'))('closes the file when the client goes away mid-body', async () => {
    const reader = (await get('/video.bin')).body!.getReader()
    await reader.read()
    expect(await openOn('video.bin')).toBe(1)
    await reader.cancel()
    await expect.poll(() => openOn('video.bin')).toBe(0)
  })

  it.runIf(existsSync('/proc/self/fd'))('closes the file of a body cancelled before its first read', async () => {
    for (const headers of [{}, { range: 'bytes=10-' }] as Array<Record<string, string>>) {
      const res = await get('/video.bin', headers)
      expect(await openOn('video.bin')).toBe(1)
      await res.body!.cancel()
      await expect.poll(() => openOn('video.bin')).toBe(0)
    }
  })

  it('sends the whole file with its length, validators and Accept-Ranges', async () => {
    const res = await get('/video.bin')
    expect(res.headers.get('content-length')).toBe(String(BIG_BYTES))
    expect(res.headers.get('accept-ranges')).toBe('bytes')
    expect(res.headers.get('last-modified')).toBe(MTIME.toUTCString())
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/)
    expect((await bytes(res)).equals(big)).toBe(true)
  })

  it('compresses text while streaming it (brotli, gzip) with a weak ETag and no length', async () => {
    const br = await get('/big/', { 'accept-encoding': 'gzip, br' })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toBe('accept-encoding')
    expect(br.headers.get('content-length')).toBeNull()
    expect(br.headers.get('etag')).toMatch(/^W\/"/)
    expect(brotliDecompressSync(await bytes(br)).toString()).toBe(page)
    const gzip = await get('/big/', { 'accept-encoding': 'gzip' })
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(await bytes(gzip)).toString()).toBe(page)
    const plain = await get('/big/')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('content-length')).toBe(String(Buffer.byteLength(page)))
    expect((await bytes(plain)).toString()).toBe(page)
  })

  it('never answers in a coding the client refuses with q=0, nor in one it does not name', async () => {
    const cases: Array<[string, string | null]> = [
      ['br;q=0, gzip', 'gzip'],
      ['gzip, br;q=0.0', 'gzip'],
      ['BR;Q=0, gzip;q=0.5', 'gzip'],
      ['gzip;q=0', null],
      ['br;q=0, gzip;q=0', null],
      ['x-br, x-gzip', null],
      ['gzip;q=0.001', 'gzip'],
    ]
    for (const [acceptEncoding, encoding] of cases) {
      const res = await get('/big/', { 'accept-encoding': acceptEncoding })
      expect(res.headers.get('content-encoding'), acceptEncoding).toBe(encoding)
      const body = await bytes(res)
      const text = encoding === 'gzip' ? gunzipSync(body).toString() : body.toString()
      expect(text, acceptEncoding).toBe(page)
    }
  })

  it('fails the body of a file that shrinks while it is sent, compressed or not, instead of ending it short', async () => {
    // letters from a fixed sequence: text that compresses, but not so well that the compressor swallows it whole
    const text = Buffer.alloc(BIG_BYTES)
    for (let i = 0, x = 1; i < BIG_BYTES; i++) {
      x = (x * 48271) % 2147483647
      text[i] = 97 + (x % 26)
    }
    const name = 'shrinking.txt'
    for (const acceptEncoding of ['', 'gzip', 'br']) {
      await writeFile(join(dir, name), text)
      try {
        const res = await get(`/${name}`, acceptEncoding ? { 'accept-encoding': acceptEncoding } : {})
        expect(res.headers.get('content-encoding') ?? '').toBe(acceptEncoding)
        const reader = res.body!.getReader()
        await reader.read()
        await writeFile(join(dir, name), 'short')
        const rest = (async () => {
          while (!(await reader.read()).done);
        })()
        await expect(rest, acceptEncoding).rejects.toThrow(/shrank while it was sent/)
      } finally {
        await rm(join(dir, name), { force: true })
      }
    }
  })

  it('answers HEAD with the GET headers and no body, and serves an empty file', async () => {
    const head = await get('/video.bin', { range: 'bytes=0-9' }, 'HEAD')
    expect(head.status).toBe(200) // Range is defined for GET only
    expect(head.headers.get('content-length')).toBe(String(BIG_BYTES))
    expect(head.body).toBeNull()
    const empty = await get('/empty.txt')
    expect(empty.status).toBe(200)
    expect(empty.headers.get('content-length')).toBe('0')
    expect((await bytes(empty)).byteLength).toBe(0)
  })
})

describe('content types', () => {
  it('names the type of every kind of file a build copies from the CMS, not application/octet-stream', async () => {
    // media/policy.ts: the downloads, audio and video a build takes into its output
    const types: Record<string, string> = {
      'clip.mp4': 'video/mp4',
      'clip.webm': 'video/webm',
      'talk.mp3': 'audio/mpeg',
      'talk.m4a': 'audio/mp4',
      'talk.ogg': 'audio/ogg',
      'talk.wav': 'audio/wav',
      'prices.csv': 'text/csv; charset=utf-8',
      'files.zip': 'application/zip',
      'offer.doc': 'application/msword',
      'offer.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'sheet.xls': 'application/vnd.ms-excel',
      'sheet.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'deck.ppt': 'application/vnd.ms-powerpoint',
      'deck.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      'offer.odt': 'application/vnd.oasis.opendocument.text',
      'sheet.ods': 'application/vnd.oasis.opendocument.spreadsheet',
      'deck.odp': 'application/vnd.oasis.opendocument.presentation',
    }
    await mkdir(join(dir, 'media'), { recursive: true })
    try {
      for (const name of Object.keys(types)) await writeFile(join(dir, 'media', name), 'bytes')
      for (const [name, type] of Object.entries(types)) {
        const res = await get(`/media/${name}`, { range: 'bytes=0-1' })
        expect(res.status, name).toBe(206)
        expect(res.headers.get('content-type'), name).toBe(type)
        await res.body?.cancel()
      }
    } finally {
      await rm(join(dir, 'media'), { recursive: true, force: true })
    }
  })
})

describe('Range requests', () => {
  const cases: Array<[string, number, number]> = [
    ['bytes=0-9', 0, 9],
    ['bytes=1000-1999', 1000, 1999],
    [`bytes=${BIG_BYTES - 10}-`, BIG_BYTES - 10, BIG_BYTES - 1],
    ['bytes=-16', BIG_BYTES - 16, BIG_BYTES - 1],
    [`bytes=100-${BIG_BYTES + 5000}`, 100, BIG_BYTES - 1],
    [`bytes=-${BIG_BYTES * 2}`, 0, BIG_BYTES - 1],
  ]
  it.each(cases)('%s -> 206 with bytes %i-%i', async (range, start, end) => {
    const res = await get('/video.bin', { range })
    expect(res.status).toBe(206)
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${BIG_BYTES}`)
    expect(res.headers.get('content-length')).toBe(String(end - start + 1))
    expect((await bytes(res)).equals(big.subarray(start, end + 1))).toBe(true)
  })

  it('answers 416 with the size to a range past the end', async () => {
    for (const range of [`bytes=${BIG_BYTES}-`, `bytes=${BIG_BYTES + 1}-${BIG_BYTES + 9}`, 'bytes=-0']) {
      const res = await get('/video.bin', { range })
      expect(res.status, range).toBe(416)
      expect(res.headers.get('content-range'), range).toBe(`bytes */${BIG_BYTES}`)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
    expect((await get('/empty.txt', { range: 'bytes=0-' })).status).toBe(416)
  })

  it('sends the whole file for several ranges, another unit or a malformed range', async () => {
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=9-2', 'bytes=-', 'bytes=a-b']) {
      const res = await get('/video.bin', { range })
      expect(res.status, range).toBe(200)
      expect(res.headers.get('content-length'), range).toBe(String(BIG_BYTES))
      await res.body?.cancel()
    }
  })

  it('never compresses a range, even of text for a client that takes brotli', async () => {
    const res = await get('/big/', { range: 'bytes=0-14', 'accept-encoding': 'br, gzip' })
    expect(res.status).toBe(206)
    expect(res.headers.get('content-encoding')).toBeNull()
    expect(res.headers.get('etag')).toMatch(/^"/)
    expect((await bytes(res)).toString()).toBe(page.slice(0, 15))
  })

  it('honours If-Range: the range while the validator holds, the whole file once it changed', async () => {
    const { etag, lastModified } = await validators('/video.bin')
    const withIfRange = async (ifRange: string) => {
      const res = await get('/video.bin', { range: 'bytes=0-9', 'if-range': ifRange })
      await res.body?.cancel()
      return res.status
    }
    expect(await withIfRange(etag)).toBe(206)
    expect(await withIfRange(lastModified)).toBe(206)
    expect(await withIfRange('"0-0"')).toBe(200)
    expect(await withIfRange(`W/${etag}`)).toBe(200) // a weak validator never holds for If-Range
    expect(await withIfRange(new Date(MTIME.getTime() - 60_000).toUTCString())).toBe(200)
  })

  it('ignores Range on a 404 page', async () => {
    const res = await get('/missing', { range: 'bytes=0-3' })
    expect(res.status).toBe(404)
    expect(await res.text()).toContain('Not found')
  })
})

async function validators(path: string): Promise<{ etag: string; lastModified: string }> {
  const res = await get(path, {}, 'HEAD')
  return { etag: res.headers.get('etag')!, lastModified: res.headers.get('last-modified')! }
}

describe('conditional requests', () => {
  it('answers 304 to a matching If-None-Match (weak comparison, lists, *), 200 otherwise', async () => {
    const { etag } = await validators('/video.bin')
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await get('/video.bin', { 'if-none-match': ifNoneMatch })
      expect(res.status, ifNoneMatch).toBe(304)
      expect(res.body, ifNoneMatch).toBeNull()
      expect(res.headers.get('etag')).toBe(etag)
    }
    const changed = await get('/video.bin', { 'if-none-match': '"other"' })
    expect(changed.status).toBe(200)
    await changed.body?.cancel()
  })

  it('matches the weak ETag of a compressed answer to its file', async () => {
    const br = await get('/big/', { 'accept-encoding': 'br' })
    const weak = br.headers.get('etag')!
    await br.body?.cancel()
    expect((await get('/big/', { 'accept-encoding': 'br', 'if-none-match': weak })).status).toBe(304)
  })

  it('answers 304 to If-Modified-Since at or after Last-Modified, and lets If-None-Match decide when both come', async () => {
    const { lastModified } = await validators('/video.bin')
    expect((await get('/video.bin', { 'if-modified-since': lastModified })).status).toBe(304)
    expect((await get('/video.bin', { 'if-modified-since': new Date().toUTCString() })).status).toBe(304)
    const older = await get('/video.bin', { 'if-modified-since': new Date(MTIME.getTime() - 1000).toUTCString() })
    expect(older.status).toBe(200)
    await older.body?.cancel()
    const both = await get('/video.bin', { 'if-modified-since': lastModified, 'if-none-match': '"other"' })
    expect(both.status).toBe(200)
    await both.body?.cancel()
    const garbage = await get('/video.bin', { 'if-modified-since': 'yesterday' })
    expect(garbage.status).toBe(200)
    await garbage.body?.cancel()
  })

  it('answers 412 to an If-Match or If-Unmodified-Since that fails, before any 304 or range', async () => {
    const { etag, lastModified } = await validators('/video.bin')
    const earlier = new Date(MTIME.getTime() - 1000).toUTCString()
    const status = async (headers: Record<string, string>, method = 'GET') => {
      const res = await get('/video.bin', headers, method)
      await res.body?.cancel()
      return res.status
    }
    for (const ifMatch of ['"other"', `W/${etag}`, `"other", W/${etag}`])
      expect(await status({ 'if-match': ifMatch }), ifMatch).toBe(412)
    expect(await status({ 'if-match': '"other"', 'if-none-match': etag })).toBe(412)
    expect(await status({ 'if-match': '"other"', range: 'bytes=0-9' }, 'HEAD')).toBe(412)
    expect(await status({ 'if-unmodified-since': earlier })).toBe(412)
    expect(await status({ 'if-unmodified-since': earlier, 'if-modified-since': lastModified })).toBe(412)
    // If-Match decides when both come; a strong match, `*` or a date at or after Last-Modified let the request on
    expect(await status({ 'if-match': etag, 'if-unmodified-since': earlier })).toBe(200)
    expect(await status({ 'if-match': `"other", ${etag}` })).toBe(200)
    expect(await status({ 'if-match': '*', range: 'bytes=0-9' })).toBe(206)
    expect(await status({ 'if-unmodified-since': lastModified })).toBe(200)
    expect(await status({ 'if-unmodified-since': 'yesterday' })).toBe(200)
    // the strong ETag of the file matches whatever the coding of the answer
    const compressed = await get('/big/', { 'accept-encoding': 'br', 'if-match': (await validators('/big/')).etag })
    await compressed.body?.cancel()
    expect(compressed.status).toBe(200)
    // a 404 page ignores preconditions (RFC 9110 section 13.2.1)
    expect((await get('/missing', { 'if-match': '"other"' })).status).toBe(404)
  })

  it('ignores a date header that is not an HTTP date, and reads the three forms of one as GMT', async () => {
    const status = async (headers: Record<string, string>) => {
      const res = await get('/video.bin', headers)
      await res.body?.cancel()
      return res.status
    }
    // what Date.parse takes but RFC 9110 does not: a year, an ISO date, an offset other than GMT
    for (const value of ['3000', '2999-01-01', '12/31/2999', 'Sun, 01 Mar 2026 11:00:00 +0100'])
      expect(await status({ 'if-modified-since': value }), value).toBe(200)
    for (const value of ['1', '2001-01-01', 'Sun, 01 Mar 2026 09:00:00 +0100'])
      expect(await status({ 'if-unmodified-since': value }), value).toBe(200)
    expect(await status({ 'if-range': '2026-03-01T10:00:00Z', range: 'bytes=0-9' })).toBe(200)
    // the obsolete forms a recipient must still read (RFC 850, asctime), whatever the server's time zone
    const zone = process.env.TZ
    process.env.TZ = 'America/New_York'
    try {
      expect(await status({ 'if-modified-since': 'Sunday, 01-Mar-26 10:00:00 GMT' })).toBe(304)
      expect(await status({ 'if-modified-since': 'Sun Mar  1 10:00:00 2026' })).toBe(304)
      expect(await status({ 'if-unmodified-since': 'Sun Mar  1 09:59:59 2026' })).toBe(412)
    } finally {
      if (zone === undefined) delete process.env.TZ
      else process.env.TZ = zone
    }
  })

  it('sees a file changed on disk: new validators, full answer', async () => {
    const { etag } = await validators('/index.html')
    const later = new Date(MTIME.getTime() + 5000)
    await utimes(join(dir, 'index.html'), later, later)
    try {
      const res = await get('/', { 'if-none-match': etag })
      expect(res.status).toBe(200)
      expect(res.headers.get('last-modified')).toBe(later.toUTCString())
      expect(await res.text()).toContain('<title>Home</title>')
    } finally {
      await utimes(join(dir, 'index.html'), MTIME, MTIME)
    }
  })
})

describe('what is never served', () => {
  it('answers 404 (the locale 404 page) for dotfiles and dot-folders', async () => {
    for (const path of ['/.env', '/.git/config', '/.git/', '/.hidden/', '/.hidden', '/.well-known/.private']) {
      const res = await get(path)
      expect(res.status, path).toBe(404)
      const body = await res.text()
      expect(body, path).toContain('<title>Not found</title>')
      expect(body, path).not.toContain('secret')
    }
    const pl = await get('/pl/.secret')
    expect(pl.status).toBe(404)
    expect(await pl.text()).toContain('Nie znaleziono')
  })

  it('serves /.well-known/', async () => {
    const res = await get('/.well-known/security.txt')
    expect(res.status).toBe(200)
    expect(await res.text()).toBe(files['.well-known/security.txt'])
  })

  it('does not serve _redirects itself, and still applies its rules', async () => {
    for (const path of ['/_redirects', '/_Redirects', '/_redirects/']) {
      const res = await get(path)
      expect(res.status, path).toBe(404)
      expect(await res.text(), path).not.toContain('/old')
    }
    const redirect = await get('/old')
    expect(redirect.status).toBe(301)
    expect(redirect.headers.get('location')).toBe('/index.html')
  })

  it('applies a rule written by hand with non-ASCII characters, answering with an ASCII Location', async () => {
    const res = await get('/stare-usługi')
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe('/us%C5%82ugi')
  })

  it('passes the query of a redirected request on to its target, as Netlify and Cloudflare Pages do', async () => {
    const cases: Array<[string, string]> = [
      ['/old?utm_source=mail&x=%C5%BC', '/index.html?utm_source=mail&x=%C5%BC'],
      ['/old/?a=1', '/index.html?a=1'],
      ['/old?', '/index.html'],
      ['/old', '/index.html'],
    ]
    for (const [path, location] of cases) {
      const res = await get(path)
      expect(res.status, path).toBe(301)
      expect(res.headers.get('location'), path).toBe(location)
    }
  })

  it('refuses, naming it, a _redirects too large to be a build’s, without reading it into memory', async () => {
    const out = await mkdtemp(join(tmpdir(), 'site-serve-huge-redirects-'))
    try {
      await writeFile(join(out, 'index.html'), '<!doctype html><title>Home</title>')
      // sparse: 600 MiB on disk in name only, more characters than one string may hold
      await writeFile(join(out, '_redirects'), '/old / 301\n')
      truncateSync(join(out, '_redirects'), 600 * 1024 * 1024)
      const served = createStaticHandler({ dir: out })
      const started = performance.now()
      await expect(served(new Request('http://localhost/'))).rejects.toThrow(
        `${join(out, '_redirects')} is 629145600 bytes, over the limit of`,
      )
      expect(performance.now() - started).toBeLessThan(500)
    } finally {
      await rm(out, { recursive: true, force: true })
    }
  })

  it('answers 404 while the folder is missing (a build swapping its output in), and serves it once back', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'site-serve-swap-'))
    const out = join(parent, 'public')
    try {
      await mkdir(out)
      await writeFile(join(out, 'index.html'), '<!doctype html><title>Home</title>')
      await writeFile(join(out, '_redirects'), '/old / 301\n')
      const swapped = createStaticHandler({ dir: out })
      expect((await swapped(new Request('http://localhost/'))).status).toBe(200)
      await rename(out, join(parent, 'old'))
      for (const path of ['/', '/index.html', '/old', '/pl/missing']) {
        const res = await swapped(new Request(`http://localhost${path}`))
        expect(res.status, path).toBe(404)
        expect(await res.text(), path).toBe('Not Found\n')
      }
      await rename(join(parent, 'old'), out)
      expect(await (await swapped(new Request('http://localhost/'))).text()).toContain('Home')
    } finally {
      await rm(parent, { recursive: true, force: true })
    }
  })

  it('sends X-Content-Type-Options: nosniff on every answer', async () => {
    const { etag } = await validators('/video.bin')
    const requests: Array<[string, Record<string, string>, string, number]> = [
      ['/', {}, 'GET', 200],
      ['/video.bin', { range: 'bytes=0-1' }, 'GET', 206],
      ['/video.bin', { 'if-none-match': etag }, 'GET', 304],
      ['/old', {}, 'GET', 301],
      ['/%00', {}, 'GET', 400],
      ['/a%5cb', {}, 'GET', 400],
      ['/', {}, 'POST', 405],
      ['/missing', {}, 'GET', 404],
      ['/.env', {}, 'HEAD', 404],
    ]
    for (const [path, headers, method, status] of requests) {
      const res = await get(path, headers, method)
      expect(res.status, `${method} ${path}`).toBe(status)
      expect(res.headers.get('x-content-type-options'), `${method} ${path}`).toBe('nosniff')
      await res.body?.cancel()
    }
    const bare = await mkdtemp(join(tmpdir(), 'site-serve-bare-'))
    try {
      const res = await createStaticHandler({ dir: bare })(new Request('http://localhost/nothing'))
      expect(res.status).toBe(404)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect((await stat(bare)).isDirectory()).toBe(true)
    } finally {
      await rm(bare, { recursive: true, force: true })
    }
  })
})
