import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient } from '../../src/api/client.js'
import { resolveSiteOptions } from '../../src/config/resolve.js'
import type { ResolvedSite, SiteOptions } from '../../src/config/types.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { FetchError, type SiteError } from '../../src/errors.js'
import { REPO_ROOT } from './build-helpers.js'

let api: DemoApi

/** An API of the test's own, answering with `handler` on 127.0.0.1 while `use` runs with its URL. */
async function withApi(handler: RequestListener, use: (url: string) => Promise<void>): Promise<void> {
  const server = createServer(handler)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  } finally {
    await new Promise((done) => server.close(done))
  }
}

const run = promisify(execFile)

const siteFor = (options: SiteOptions = {}): ResolvedSite => {
  const site = resolveSiteOptions(options, [])
  return { ...site, api: { ...site.api, baseUrl: options.api?.baseUrl ?? api.url } }
}
const lastRequest = () => api.requests[api.requests.length - 1]!

beforeAll(async () => {
  api = await startDemoApi({ port: 0 })
})
afterAll(() => api.close())

describe('API client against the demo API', () => {
  it('gets pages by full path, locale prefix included', async () => {
    const client = createApiClient(siteFor())
    const home = await client.getPage('/pl')
    expect(home.type).toBe('page')
    if (home.type === 'page') {
      expect(home.status).toBe(200)
      expect(home.data.content).toBeTypeOf('object')
      expect(home.data.i18n?.find((l) => l.active)?.twoLetterIsoCode).toBe('pl')
    }
  })

  it('filters the query by allowQuery, type always passing', async () => {
    const client = createApiClient(siteFor({ api: { allowQuery: ['cHash'] } }))
    await client.getPage('/?utm_source=mail&cHash=abc&type=0')
    expect(lastRequest().query).toEqual({ cHash: 'abc', type: '0' })
    await createApiClient(siteFor({ api: { allowQuery: false } })).getPage('/?cHash=abc')
    expect(lastRequest().query).toEqual({})
  })

  it("keeps the base URL's own query on every request, ahead of the request's", async () => {
    const client = createApiClient(siteFor({ api: { baseUrl: `${api.url}/?key=k-123` } }))
    const about = await client.getPage('/about-us?cHash=abc')
    expect(about.type).toBe('page')
    expect(lastRequest()).toMatchObject({ path: '/about-us', query: { key: 'k-123', cHash: 'abc' } })
    const { data } = await client.getInitialData('pl')
    expect(data.navigation).toBeDefined()
    expect(lastRequest()).toMatchObject({ path: '/pl', query: { key: 'k-123', type: '834' } })
  })

  it('asks for answers without a content coding, whatever headers say: an answer is never decoded', async () => {
    const client = createApiClient(siteFor({ api: { headers: { 'accept-encoding': 'gzip' } } }))
    await client.getPage('/', { headers: { 'accept-encoding': 'br, gzip' } })
    expect(lastRequest().headers['accept-encoding']).toBe('identity')
  })

  it('takes header names of the config in any case as the same header, sent once', async () => {
    const client = createApiClient(
      siteFor({ api: { headers: { 'Accept-Encoding': 'gzip', Accept: 'application/ld+json' } } }),
    )
    await client.getPage('/')
    expect(lastRequest().headers).toMatchObject({ 'accept-encoding': 'identity', accept: 'application/ld+json' })
  })

  it('sends default and per-call headers, nothing else of the caller', async () => {
    const client = createApiClient(siteFor({ api: { headers: { 'x-site': 'demo' } } }))
    await client.getPage('/', { headers: { cookie: 'be_typo_user=1' } })
    expect(lastRequest().headers).toMatchObject({
      'x-site': 'demo',
      cookie: 'be_typo_user=1',
      accept: 'application/json',
    })
  })

  it('returns redirect records as a distinct result', async () => {
    const client = createApiClient(siteFor())
    const redirect = await client.getPage('/old-services')
    expect(redirect).toMatchObject({ type: 'redirect', statusCode: 301 })
  })

  it('keeps status and body on an error answer', async () => {
    const client = createApiClient(siteFor())
    const error = (await client.getPage('/no-such-page-here').catch((e: unknown) => e)) as FetchError
    expect(error).toBeInstanceOf(FetchError)
    expect(error.status).toBe(404)
    expect(error.code).toBe('API_HTTP')
    expect(error.data).toMatchObject({ content: expect.any(Object) })
  })

  it('hands a 2xx page answer over unparsed (what the build passes to a render worker), and throws on the others as getPage does', async () => {
    const client = createApiClient(siteFor())
    const answer = await client.getPageAnswer('/pl')
    expect(answer).toMatchObject({
      url: `${api.url}/pl`,
      status: 200,
      headers: { 'content-type': expect.stringContaining('json') },
    })
    const page = await client.getPage('/pl')
    if (page.type !== 'page') throw new Error('expected a page')
    expect(JSON.parse(new TextDecoder().decode(answer.body))).toEqual(page.data)
    expect(await client.getPageAnswer('/no-such-page-here').catch((e: unknown) => e)).toMatchObject({
      code: 'API_HTTP',
      status: 404,
      data: { content: expect.any(Object) },
    })
  })

  it('takes an answer status outside 400-599 that is no page (999, a bare 301) as a bad gateway', async () => {
    await withApi(
      (req, res) => {
        res.writeHead(req.url === '/moved' ? 301 : 999, { 'content-type': 'application/json' }).end('{}')
      },
      async (url) => {
        const client = createApiClient(siteFor({ api: { baseUrl: url } }))
        for (const [path, status] of [
          ['/odd', 999],
          ['/moved', 301],
        ] as const)
          expect(await client.getPage(path).catch((e: unknown) => e)).toMatchObject({
            code: 'API_HTTP',
            status: 502,
            message: `HTTP ${status} (GET ${url}${path})`,
          })
      },
    )
  })

  it('names where an HTTP redirect of the API points, and does not go there', async () => {
    const hits: string[] = []
    await withApi(
      (req, res) => {
        hits.push(req.url!)
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end()
      },
      async (url) => {
        expect(
          await createApiClient(siteFor({ api: { baseUrl: url } }))
            .getPage('/moved')
            .catch((e: unknown) => e),
        ).toMatchObject({
          code: 'API_HTTP',
          status: 502,
          message: `HTTP 302, a redirect to http://169.254.169.254/latest/meta-data, which is not followed (GET ${url}/moved)`,
        })
        expect(hits).toEqual(['/moved'])
      },
    )
  })

  it("says what went wrong when an answer ends before the length it declared, not only undici's code", async () => {
    await withApi(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
        res.write('{"id":5,')
        setTimeout(() => res.socket?.destroy(), 20)
      },
      async (url) => {
        expect(
          await createApiClient(siteFor({ api: { baseUrl: url } }))
            .getPage('/short')
            .catch((e: unknown) => e),
        ).toMatchObject({
          code: 'API_NETWORK',
          status: 502,
          message: `UND_ERR_SOCKET: other side closed (GET ${url}/short)`,
        })
      },
    )
  })

  it('reports non-JSON, malformed JSON, resets and timeouts with the path', async () => {
    api.setFaults([
      { path: '/html', kind: 'html' },
      { path: '/malformed', kind: 'malformed-json' },
      { path: '/reset', kind: 'reset' },
      { path: '/hang', kind: 'hang' },
    ])
    const client = createApiClient(siteFor({ api: { timeoutMs: 300 } }))
    const fail = (path: string) => client.getPage(path).catch((e: unknown) => e as FetchError)
    expect(await fail('/html')).toMatchObject({
      code: 'API_BAD_RESPONSE',
      message: expect.stringContaining(`${api.url}/html`),
    })
    expect(await fail('/malformed')).toMatchObject({ code: 'API_BAD_RESPONSE' })
    expect(await fail('/reset')).toMatchObject({ code: 'API_NETWORK', message: expect.stringContaining('/reset') })
    expect(await fail('/hang')).toMatchObject({
      code: 'API_TIMEOUT',
      message: expect.stringContaining('no complete answer within 300 ms'),
    })
    api.setFaults([])
  })

  it('reads an answer that arrived while the thread was busy before its deadline counts it late', async () => {
    // the API in a process of its own answers at 100 ms; this thread is busy (a long render) from 50 ms to 450 ms
    const server = spawn(process.execPath, [
      '-e',
      `require('node:http').createServer((q, s) => setTimeout(() => s.end('{"id":1}'), 100))
        .listen(0, '127.0.0.1', function () { console.log(this.address().port) })`,
    ])
    try {
      const [port] = (await once(server.stdout, 'data')) as [Buffer]
      const client = createApiClient(
        siteFor({ api: { baseUrl: `http://127.0.0.1:${String(port).trim()}`, timeoutMs: 300 } }),
      )
      const answer = client.getPage('/busy')
      await new Promise((done) => setTimeout(done, 50))
      // busy in a later turn of the event loop, as a render that follows an answer is
      await new Promise((done) => setImmediate(done))
      const until = Date.now() + 400
      while (Date.now() < until) {}
      expect(await answer).toMatchObject({ data: { id: 1 } })
    } finally {
      server.kill()
    }
  })
})

describe('initial data', () => {
  it('uses the locale-prefixed endpoint path', async () => {
    const client = createApiClient(siteFor())
    for (const [locale, path] of [
      ['en', '/'],
      ['pl', '/pl'],
      ['de', '/de'],
    ] as const) {
      const { data } = await client.getInitialData(locale)
      expect(lastRequest()).toMatchObject({ path, query: { type: '834' } })
      expect(Array.isArray(data.navigation)).toBe(true)
    }
  })

  it('falls back once when the primary endpoint fails', async () => {
    api.setFaults([{ path: '/pl', query: 'type=834', kind: 'status503' }])
    const client = createApiClient(
      siteFor({ api: { endpoints: { initialData: '/?type=834', initialDataFallback: '/?type=835' } } }),
    )
    const { data } = await client.getInitialData('pl')
    expect(data.i18n.length).toBeGreaterThan(0)
    expect(api.requests.slice(-2).map((r) => r.query.type)).toEqual(['834', '835'])
    api.setFaults([])
  })

  it('fails with "Initial Data is unavailable" and the upstream status when both fail', async () => {
    api.setFaults([{ path: '/de', kind: 'status503' }])
    const client = createApiClient(siteFor())
    const error = (await client.getInitialData('de').catch((e: unknown) => e)) as SiteError
    expect(error.code).toBe('INITIAL_DATA_UNAVAILABLE')
    expect(error.message).toMatch(/^Initial Data is unavailable: HTTP 503/)
    expect(error.status).toBe(503)
    api.setFaults([])
  })

  it('answers 500 when the API is not reachable at all', async () => {
    const client = createApiClient(siteFor({ api: { baseUrl: 'http://127.0.0.1:9' } }))
    const error = (await client.getInitialData('en').catch((e: unknown) => e)) as SiteError
    expect(error.message).toMatch(/^Initial Data is unavailable: ECONNREFUSED/)
    expect(error.status).toBe(500)
  })
})

describe('the request on the wire', () => {
  it('works in a process that called the built-in fetch first (it installs an older undici as the global dispatcher)', async () => {
    const dist = (path: string) => JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist', path)).href)
    // fetch before the client's modules load: undici takes the global dispatcher that is there when it loads
    const script = [
      `await (await fetch(${JSON.stringify(`${api.url}/?type=834`)})).arrayBuffer()`,
      `const { createApiClient } = await import(${dist('api/client.js')})`,
      `const { resolveSiteOptions } = await import(${dist('config/resolve.js')})`,
      'const site = resolveSiteOptions({}, [])',
      `const client = createApiClient({ ...site, api: { ...site.api, baseUrl: ${JSON.stringify(api.url)} } })`,
      "const page = await client.getPage('/pl')",
      'console.log(page.type)',
    ].join('\n')
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script])
    expect(stdout.trim()).toBe('page')
  })

  it('keeps a base URL path prefix and the query, and joins repeated answer headers', async () => {
    const seen: string[] = []
    await withApi(
      (req, res) => {
        seen.push(req.url ?? '')
        res.setHeader('content-type', 'application/json')
        res.setHeader('x-tag', ['a', 'b'])
        res.end('{"id":1,"content":{}}')
      },
      async (url) => {
        const client = createApiClient(siteFor({ api: { baseUrl: `${url}/cms/api`, allowQuery: ['x'] } }))
        const answer = await client.getPageAnswer('/pl/o-nas?x=1&y=2')
        expect(seen).toEqual(['/cms/api/pl/o-nas?x=1'])
        expect(answer).toMatchObject({ status: 200, headers: { 'x-tag': 'a, b' } })
        expect(new TextDecoder().decode(answer.body)).toBe('{"id":1,"content":{}}')
      },
    )
  })
})
