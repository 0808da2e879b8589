/**
 * The API client's deadline against a real loopback API that trickles (issue 13
 * item 3): a request ends by `api.timeoutMs`, body included.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiClient } from '../../src/api/client.js'
import { resolveSiteOptions } from '../../src/config/resolve.js'
import type { ResolvedSite, SiteOptions } from '../../src/config/types.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import type { FetchError } from '../../src/errors.js'
import { BASE_URL, type BuildTools, buildSite, loadBuildTools } from './build-helpers.js'
import { type HostileApi, startHostileApi, TRICKLE_BODY } from './hostile-api-server.js'
import { DEMO_OPTIONS, loadTestRegistry, makeHandler } from './preview-helpers.js'

let demo: DemoApi
let hostile: HostileApi

beforeAll(async () => {
  demo = await startDemoApi({ port: 0 })
  hostile = await startHostileApi({ upstream: demo.url, trickleEveryMs: 100 })
})
afterAll(async () => {
  await hostile?.close()
  await demo?.close()
})

const clientFor = (api: SiteOptions['api']) => {
  const site = resolveSiteOptions({ api }, [])
  return createApiClient({ ...site, api: { ...site.api, baseUrl: hostile.url } } satisfies ResolvedSite)
}
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the request to fail')
    },
    (error: unknown) => error as FetchError,
  )

describe('api.timeoutMs is a deadline for the whole answer (issue 13, item 3)', () => {
  it('ends an answer that trickles one byte every 100 ms, naming the path', async () => {
    // Complete after ~7 s: each byte resets undici's bodyTimeout, so only a deadline ends it.
    const error = await failure(clientFor({ timeoutMs: 600 }).getPage('/trickle-page'))
    expect(error).toMatchObject({ code: 'API_TIMEOUT', status: 504 })
    expect(error.message).toBe(`no complete answer within 600 ms (GET ${hostile.url}/trickle-page)`)
    const sent = hostile.sent.get('/trickle-page')
    expect(sent?.complete).toBe(false)
    expect(sent!.bytes).toBeLessThan(TRICKLE_BODY.length)
  })

  it('keeps the deadline when the caller passes its own signal (preview hands over its request signal)', async () => {
    const caller = new AbortController()
    const error = await failure(clientFor({ timeoutMs: 600 }).getPage('/trickle-signal', { signal: caller.signal }))
    expect(error).toMatchObject({ code: 'API_TIMEOUT', message: expect.stringContaining('/trickle-signal') })
    expect(hostile.sent.get('/trickle-signal')?.complete).toBe(false)
  })

  it('ends the request when the caller aborts first, without calling it a timeout', async () => {
    const caller = new AbortController()
    const pending = failure(clientFor({ timeoutMs: 60_000 }).getPage('/trickle-abort', { signal: caller.signal }))
    setTimeout(() => caller.abort(), 300)
    const error = await pending
    expect(error).toMatchObject({
      code: 'API_NETWORK',
      message: `request aborted by the caller (GET ${hostile.url}/trickle-abort)`,
    })
    expect(hostile.sent.get('/trickle-abort')?.complete).toBe(false)
  })

  it('still reads an answer that completes in time', async () => {
    const page = await clientFor({ timeoutMs: 60_000 }).getPage('/about-us')
    expect(page.type).toBe('page')
  })
})

describe('a build against an API that trickles', () => {
  let tools: BuildTools
  let dir: string
  beforeAll(async () => {
    tools = await loadBuildTools()
    dir = await mkdtemp(join(tmpdir(), 'site-api-limits-'))
  }, 60_000)
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('lists the page as a failure with its code, and writes no output', async () => {
    // The demo API links /contact from its navigation; the proxy breaks exactly that page.
    const proxy = await startHostileApi({
      upstream: demo.url,
      paths: { '/contact': 'trickle' },
    })
    try {
      const out = join(dir, 'out')
      const result = await buildSite({
        apiUrl: proxy.url,
        outDir: out,
        tools,
        user: { baseUrl: BASE_URL, api: { timeoutMs: 1_500 } },
      })
      expect(result.failures).toEqual([
        {
          path: '/contact',
          status: 504,
          reason: expect.stringMatching(/^API error: no complete answer within 1500 ms .*\/contact\)$/),
        },
      ])
      expect(await readdir(dir)).toEqual([])
    } finally {
      await proxy.close()
    }
  }, 60_000)
})

describe('site preview against an API that trickles', () => {
  it('answers 504 instead of hanging', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'site-api-limits-preview-'))
    const proxy = await startHostileApi({
      upstream: demo.url,
      paths: { '/contact': 'trickle' },
    })
    try {
      const { handle } = await makeHandler({
        apiUrl: proxy.url,
        registry: await loadTestRegistry(cacheDir),
        user: { ...DEMO_OPTIONS, api: { ...DEMO_OPTIONS.api, timeoutMs: 600 } },
      })
      const slow = await handle(new Request('http://localhost/contact'))
      expect(slow.status).toBe(504)
      expect(await slow.text()).toContain('no complete answer within 600 ms')
      expect(proxy.sent.get('/contact')?.complete).toBe(false)
    } finally {
      await proxy.close()
      await rm(cacheDir, { recursive: true, force: true })
    }
  }, 60_000)
})
