import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDemoApi } from '../../src/demo/server.js'
import { loadPublicFiles } from '../../src/preview/load-context.js'
import type { TemplateRegistry } from '../../src/shared/contract.js'
import { loadTestRegistry, makeHandler } from './preview-helpers.js'

describe('preview handler: payloads, files, refused requests', () => {
  let tmp: string
  let registry: TemplateRegistry
  let api: Awaited<ReturnType<typeof startDemoApi>>
  let handler: Awaited<ReturnType<typeof makeHandler>>
  const get = (path: string, init: RequestInit = {}) =>
    handler.handle(new Request(`http://localhost:3000${path}`, init))

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'site-preview-files-'))
    registry = await loadTestRegistry(join(tmp, 'cache'))
    api = await startDemoApi({ port: 0 })
    await mkdir(join(tmp, 'public', 'icons'), { recursive: true })
    await writeFile(join(tmp, 'public', 'sw.js'), 'self.skipWaiting()')
    await writeFile(join(tmp, 'public', 'icons', 'logo.svg'), '<svg/>')
    await mkdir(join(tmp, 'public', 'campaign'))
    await writeFile(join(tmp, 'public', 'campaign', 'index.html'), '<!doctype html><title>Campaign</title>')
    await mkdir(join(tmp, 'public', 'about-us'))
    await writeFile(join(tmp, 'public', 'about-us', 'index.html'), '<!doctype html><title>Shadowed</title>')
    await mkdir(join(tmp, 'public', '.well-known'))
    await writeFile(join(tmp, 'public', '.well-known', 'security.txt'), 'Contact: mailto:security@example.com')
    await writeFile(join(tmp, 'public', '.env'), 'SECRET=1')
    await writeFile(join(tmp, 'secret.txt'), 'top secret')
    handler = await makeHandler({ apiUrl: api.url, registry, publicFiles: await loadPublicFiles(join(tmp, 'public')) })
  }, 60_000)
  afterAll(async () => {
    handler?.events.close()
    await api?.close()
    await rm(tmp, { recursive: true, force: true })
  })

  it('serves a live payload for any page path, in the build payload shape', async () => {
    const res = await get('/about-us/_payload.json?_b=preview')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const payload = await res.json()
    expect(payload).toMatchObject({
      clientVersion: 'preview',
      locale: 'en',
      path: '/about-us',
      status: 200,
      initialDataUrl: '/_site/data/initial-en.json',
    })
    expect(payload.page.id).toBe(2)
    const home = await (await get('/_payload.json')).json()
    expect(home).toMatchObject({ path: '/', locale: 'en', status: 200 })
    const pl = await (await get('/pl/o-nas/_payload.json')).json()
    expect(pl).toMatchObject({ path: '/pl/o-nas', locale: 'pl' })
    expect(api.requests.some((r) => '_b' in r.query)).toBe(false)
  })

  it('answers redirects and errors in payloads', async () => {
    const moved = await get('/old-services/_payload.json')
    expect(moved.status).toBe(200)
    expect(await moved.json()).toMatchObject({
      clientVersion: 'preview',
      path: '/old-services',
      redirect: { to: '/services', statusCode: 301 },
    })
    const missing = await get('/no-such-page/_payload.json')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ status: 404, page: { id: 20 } })
    const invalid = await get('/a%2fb/_payload.json')
    expect(invalid.status).toBe(404)
    await invalid.text()
  })

  it('serves initial data and the build id the client asks for', async () => {
    const latest = await get('/_site/builds/latest.json')
    expect(latest.headers.get('cache-control')).toBe('no-cache')
    expect(await latest.json()).toMatchObject({ id: 'preview', timestamp: expect.any(Number) })
    const initial = await get('/_site/data/initial-pl.json')
    expect(initial.status).toBe(200)
    const data = await initial.json()
    expect(Array.isArray(data.navigation)).toBe(true)
    expect((await get('/_site/data/initial-xx.json')).status).toBe(404)
    expect((await get('/_site/nothing-here')).status).toBe(404)
  })

  it('serves client bundle files from memory, immutable', async () => {
    const res = await get('/_site/assets/entry-1a2b3c.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(await res.text()).toBe('console.log("entry")')
    expect((await get('/_site/assets/missing-000.js')).status).toBe(404)
  })

  it('serves public/ files and nothing outside the folder', async () => {
    const sw = await get('/sw.js')
    expect(sw.status).toBe(200)
    expect(sw.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await sw.text()).toBe('self.skipWaiting()')
    expect(await (await get('/icons/logo.svg')).text()).toBe('<svg/>')
    // site build copies public/.well-known/ and site serve serves it; preview once answered 404.
    const security = await get('/.well-known/security.txt')
    expect(security.status).toBe(200)
    expect(await security.text()).toBe('Contact: mailto:security@example.com')
    expect((await get('/.env')).status).toBe(404)
    for (const path of [
      '/..%2fsecret.txt',
      '/icons/..%2f..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/sw.js%00',
      '/icons%5c..%5c..%5csecret.txt',
    ]) {
      const res = await get(path)
      expect([400, 404], path).toContain(res.status)
      expect(await res.text(), path).not.toContain('top secret')
    }
  })

  it('does not follow a symbolic link put in place of a listed file or folder since the listing (a checkout, --no-watch)', async () => {
    const dir = join(tmp, 'swapped')
    await mkdir(join(dir, 'public', 'docs'), { recursive: true })
    await writeFile(join(dir, 'public', 'robots.txt'), 'User-agent: *')
    await writeFile(join(dir, 'public', 'docs', 'guide.txt'), 'a guide')
    await mkdir(join(dir, 'private'))
    await writeFile(join(dir, 'private', 'guide.txt'), 'private guide')
    const swapped = await makeHandler({
      apiUrl: api.url,
      registry,
      publicFiles: await loadPublicFiles(join(dir, 'public')),
    })
    expect(await (await swapped.handle(new Request('http://localhost:3000/robots.txt'))).text()).toBe('User-agent: *')
    // The listing named regular files; a link now stands where each was, leading out of public/.
    await rm(join(dir, 'public', 'robots.txt'))
    await symlink(join(tmp, 'secret.txt'), join(dir, 'public', 'robots.txt'))
    await rm(join(dir, 'public', 'docs'), { recursive: true })
    await symlink(join(dir, 'private'), join(dir, 'public', 'docs'))
    for (const path of ['/robots.txt', '/docs/guide.txt']) {
      const res = await swapped.handle(new Request(`http://localhost:3000${path}`))
      const body = await res.text()
      expect(res.status, path).toBe(404)
      expect(body, path).not.toContain('top secret')
      expect(body, path).not.toContain('private guide')
    }
    swapped.events.close()
  })

  it('answers a file path with a trailing slash 404 (the error page), as a static host does; a page path with one is the page', async () => {
    for (const path of ['/sw.js/', '/icons/logo.svg/', '/.well-known/security.txt/', '/sw.js//']) {
      const res = await get(path)
      expect(res.status, path).toBe(404)
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8')
      const body = await res.text()
      expect(body, path).not.toContain('self.skipWaiting()')
      expect(body, path).not.toContain('Contact: mailto:')
    }
    const page = await get('/about-us/')
    expect(page.status).toBe(200)
    await page.text()
  })

  it("serves public/<dir>/index.html where the API has no page, as the build's copy of it is served", async () => {
    for (const path of ['/campaign', '/campaign/']) {
      const res = await get(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8')
      expect(await res.text(), path).toBe('<!doctype html><title>Campaign</title>')
    }
    // the build writes the CMS page over the public file
    const page = await get('/about-us/')
    expect(page.status).toBe(200)
    expect(await page.text()).not.toContain('Shadowed')
    const head = await get('/campaign/', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  it('opens a server-sent event stream that receives reload', async () => {
    const abort = new AbortController()
    const res = await get('/_site/events', { signal: abort.signal })
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = res.body!.getReader()
    await reader.read()
    handler.events.send('reload')
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: reload')
    abort.abort()
    expect(handler.events.size).toBe(0)
  })

  it('refuses bodies and other methods (400/405), a path that does not decode as a page not found, and answers HEAD without a body', async () => {
    const malformed = await get('/%E0%A4%A')
    expect(malformed.status).toBe(404)
    expect(await malformed.text()).toContain('Page Not Found: /%E0%A4%A')
    expect((await get('/about-us', { headers: { 'content-length': '5' } })).status).toBe(400)
    expect((await get('/about-us', { headers: { 'transfer-encoding': 'chunked' } })).status).toBe(400)
    const post = await get('/about-us', { method: 'POST', body: 'x=1' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS'])
      expect((await get('/', { method })).status, method).toBe(405)
    const head = await get('/about-us', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.body).toBeNull()
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8')
  })
})
