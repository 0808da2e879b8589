import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStaticServer } from '../../src/serve/server.js'
import { connectAnswer } from './cli-helpers.js'

/** A raw request: fetch would normalise `..` and encoded characters away before they reach the server. */
function rawGet(
  base: string,
  path: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { hostname, port } = new URL(base)
  return new Promise((done, fail) => {
    const req = httpRequest({ hostname, port, path, method, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', fail)
    req.end()
  })
}

describe('site serve: a built output over a real socket', () => {
  let root: string
  let dir: string
  let server: { url: string; close(): Promise<void> }
  const files: Record<string, string> = {
    'index.html': '<!doctype html><title>Home</title>',
    'about/index.html': '<!doctype html><title>About</title>',
    'pl/index.html': '<!doctype html><title>Strona główna</title>',
    'pl/o-nas/index.html': '<!doctype html><title>O nas</title>',
    '404.html': '<!doctype html><title>Not found</title>',
    'pl/404.html': '<!doctype html><title>Nie znaleziono</title>',
    '_payload.json': '{"path":"/"}',
    'about/_payload.json': '{"path":"/about"}',
    '_site/assets/entry-3f2a.js': 'console.log(1)',
    '_site/assets/styles-9c1d.css': 'body{}',
    '_site/builds/latest.json': '{"id":"b1","timestamp":1}',
    '_site/data/initial-en-7e4b.json': '{"navigation":[]}',
    'sw.js': 'self.addEventListener("fetch",()=>{})',
    'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'icon.png': 'png',
    'sitemap.xml': '<urlset/>',
    'robots.txt': 'User-agent: *',
    'big/index.html': `<!doctype html><title>Big</title>${'<p>Amberline builds software.</p>'.repeat(200)}`,
    'site.webmanifest': '{}',
    _redirects:
      '# from to status\n/old /about 301\n/pl/stare /pl/o-nas 302\n/ext https://example.com/x 308\n/blog/* /news/:splat 301\n',
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'site-serve-'))
    dir = join(root, 'out')
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, name)), { recursive: true })
      await writeFile(join(dir, name), text)
    }
    await writeFile(join(root, 'secret.txt'), 'secret')
    await symlink(join(root, 'secret.txt'), join(dir, 'link.txt'))
    server = await startStaticServer({ dir, host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await server?.close()
    await rm(root, { recursive: true, force: true })
  })

  it('serves /a/b and /a/b/ from a/b/index.html, no-cache', async () => {
    for (const path of ['/about', '/about/', '/pl/o-nas', '/pl/o-nas/']) {
      const res = await fetch(`${server.url}${path}`)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(res.headers.get('cache-control')).toBe('no-cache')
    }
    expect(await (await fetch(`${server.url}/about`)).text()).toContain('<title>About</title>')
    expect(await (await fetch(`${server.url}/`)).text()).toContain('<title>Home</title>')
  })

  it('gives each file its content type and cache policy', async () => {
    const cases: Array<[string, string, string]> = [
      ['/_site/assets/entry-3f2a.js', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
      ['/_site/assets/styles-9c1d.css', 'text/css; charset=utf-8', 'public, max-age=31536000, immutable'],
      ['/_site/data/initial-en-7e4b.json', 'application/json; charset=utf-8', 'public, max-age=31536000, immutable'],
      ['/_site/builds/latest.json', 'application/json; charset=utf-8', 'no-cache'],
      ['/about/_payload.json', 'application/json; charset=utf-8', 'no-cache'],
      ['/_payload.json', 'application/json; charset=utf-8', 'no-cache'],
      ['/sw.js', 'text/javascript; charset=utf-8', 'no-cache'],
      ['/logo.svg', 'image/svg+xml', 'no-cache'],
      ['/icon.png', 'image/png', 'no-cache'],
      ['/sitemap.xml', 'application/xml; charset=utf-8', 'no-cache'],
      ['/robots.txt', 'text/plain; charset=utf-8', 'no-cache'],
      ['/site.webmanifest', 'application/manifest+json; charset=utf-8', 'no-cache'],
    ]
    for (const [path, type, cache] of cases) {
      const res = await fetch(`${server.url}${path}`)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type'), path).toBe(type)
      expect(res.headers.get('cache-control'), path).toBe(cache)
      await res.arrayBuffer()
    }
  })

  it('answers 404 with the locale 404 page', async () => {
    const en = await fetch(`${server.url}/missing/page`)
    expect(en.status).toBe(404)
    expect(await en.text()).toContain('Not found')
    const pl = await fetch(`${server.url}/pl/brak`)
    expect(pl.status).toBe(404)
    expect(await pl.text()).toContain('Nie znaleziono')
    const asset = await fetch(`${server.url}/_site/assets/gone-0000.js`)
    expect(asset.status).toBe(404)
    await asset.arrayBuffer()
  })

  it('honours _redirects', async () => {
    const cases: Array<[string, number, string]> = [
      ['/old', 301, '/about'],
      ['/old/', 301, '/about'],
      ['/pl/stare', 302, '/pl/o-nas'],
      ['/ext', 308, 'https://example.com/x'],
      ['/blog/2024/post', 301, '/news/2024/post'],
    ]
    for (const [path, status, location] of cases) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' })
      expect(res.status, path).toBe(status)
      expect(res.headers.get('location'), path).toBe(location)
    }
  })

  it('never reads outside the folder', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/about/%2e%2e/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%00',
      '/a%5c..%5csecret.txt',
    ]) {
      const res = await rawGet(server.url, path)
      expect([400, 404], path).toContain(res.status)
      expect(res.body, path).not.toContain('secret')
    }
    const linked = await rawGet(server.url, '/link.txt')
    expect(linked.status).toBe(404)
    expect(linked.body).not.toContain('secret')
  })

  it('refuses other methods, bodies and malformed paths without crashing', async () => {
    expect((await rawGet(server.url, '/', 'POST')).status).toBe(405)
    expect((await rawGet(server.url, '/', 'DELETE')).status).toBe(405)
    expect((await rawGet(server.url, '/%E0%A4%A')).status).toBe(400)
    expect((await rawGet(server.url, '/', 'GET', { host: 'evil.example/secret' })).status).toBe(400)
    expect((await rawGet(server.url, '/', 'GET', { host: 'a b' })).status).toBe(400)
    const withBody = await fetch(`${server.url}/`, { method: 'PUT', body: 'x' })
    expect(withBody.status).toBe(405)
    const head = await rawGet(server.url, '/about', 'HEAD')
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect((await fetch(`${server.url}/`)).status).toBe(200)
  })

  it('answers TRACE, which fetch cannot carry, with 405 and Allow as any other method', async () => {
    const answer = await rawGet(server.url, '/about', 'TRACE')
    expect(answer.status).toBe(405)
    expect(answer.headers.allow).toBe('GET, HEAD')
    expect(answer.body).toBe('Method Not Allowed\n')
  })

  it('answers OPTIONS * (the server as a whole) with 405 and Allow as OPTIONS on a path, not 400', async () => {
    const answer = await rawGet(server.url, '*', 'OPTIONS')
    expect(answer.status).toBe(405)
    expect(answer.headers.allow).toBe('GET, HEAD')
    expect((await rawGet(server.url, '*')).status).toBe(400)
  })

  it('answers CONNECT, which node hands to no request listener, with 405 and Allow, not a dropped connection', async () => {
    const answer = await connectAnswer(server.url)
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/)
    expect(answer).toMatch(/\r\nallow: GET, HEAD\r\n/i)
    expect(answer.endsWith('\r\n\r\nMethod Not Allowed\n')).toBe(true)
  })

  it('compresses text the way static hosts do, and leaves small or binary files alone', async () => {
    const { request } = await import('undici')
    const get = async (path: string, encoding: string) => {
      const res = await request(`${server.url}${path}`, { headers: { 'accept-encoding': encoding } })
      const body = Buffer.from(await res.body.arrayBuffer())
      return { encoding: res.headers['content-encoding'], vary: res.headers.vary, body }
    }
    const br = await get('/big', 'gzip, deflate, br')
    expect(br).toMatchObject({ encoding: 'br', vary: 'accept-encoding' })
    expect(brotliDecompressSync(br.body).toString()).toBe(files['big/index.html'])
    const gz = await get('/big', 'gzip')
    expect(gz.encoding).toBe('gzip')
    expect(gunzipSync(gz.body).toString()).toBe(files['big/index.html'])
    expect((await get('/big', 'identity')).encoding).toBeUndefined()
    expect((await get('/about', 'br')).encoding).toBeUndefined()
  })

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(`${server.url}/about`)
    const etag = first.headers.get('etag')!
    await first.text()
    const again = await fetch(`${server.url}/about`, { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
  })

  it('names a --host that is no address of this machine (TEST-NET-1: nothing leaves it)', async () => {
    await expect(startStaticServer({ dir, host: '192.0.2.1', port: 0 })).rejects.toMatchObject({
      code: 'USAGE',
      message: '--host 192.0.2.1: no address of this machine (EADDRNOTAVAIL)',
    })
  })

  it('refuses an empty --host, on which node would listen on every interface', async () => {
    await expect(startStaticServer({ dir, host: '', port: 0 })).rejects.toMatchObject({
      code: 'USAGE',
      message: "--host '': an empty address would listen on every interface; name one (127.0.0.1, or 0.0.0.0 for all)",
    })
  })

  it('names a missing folder, and a file given for the folder', async () => {
    await expect(startStaticServer({ dir: join(root, 'nope'), host: '127.0.0.1', port: 0 })).rejects.toThrow(
      /Folder not found: .*nope/,
    )
    const file = join(root, 'secret.txt')
    await expect(startStaticServer({ dir: file, host: '127.0.0.1', port: 0 })).rejects.toThrow(
      `Cannot serve ${file}: it is a file, not a folder (pass the output folder to serve)`,
    )
  })

  // every file of the machine a reader may read (/etc/passwd, keys under /root…) would be served, on 0.0.0.0 to all
  it('refuses the file-system root, as a build does', async () => {
    await expect(startStaticServer({ dir: '/', host: '127.0.0.1', port: 0 })).rejects.toMatchObject({
      code: 'USAGE',
      message: 'Refusing to serve /: the folder to serve cannot be a file-system root',
    })
    const link = join(root, 'root-link')
    await symlink('/', link)
    await expect(startStaticServer({ dir: link, host: '127.0.0.1', port: 0 })).rejects.toMatchObject({
      code: 'USAGE',
      message: `Refusing to serve ${link}: the folder to serve cannot be a file-system root`,
    })
  })
})
