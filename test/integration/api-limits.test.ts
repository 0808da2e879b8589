/**
 * The API client's deadline and size cap against a real loopback API that trickles
 * or floods: a request ends by `api.timeoutMs`, body
 * included, and stops reading past `api.maxResponseBytes`.
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

const MiB = 1024 * 1024
const FLOOD_BYTES = 64 * MiB

let demo: DemoApi
let hostile: HostileApi

beforeAll(async () => {
  demo = await startDemoApi({ port: 0 })
  hostile = await startHostileApi({ upstream: demo.url, trickleEveryMs: 100, floodBytes: FLOOD_BYTES })
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

describe('api.timeoutMs is a deadline for the whole answer', () => {
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
    // Abort once the server holds the request (a fixed delay raced the request on a loaded machine).
    await expect.poll(() => hostile.sent.has('/trickle-abort')).toBe(true)
    caller.abort()
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

describe('api.maxResponseBytes caps what is read', () => {
  it('stops reading a streamed answer past the limit and names the path and the limit', async () => {
    const error = await failure(clientFor({ maxResponseBytes: MiB }).getPage('/flood-page'))
    expect(error).toMatchObject({ code: 'API_TOO_LARGE', status: 502 })
    expect(error.message).toBe(
      `answer larger than ${MiB} bytes (api.maxResponseBytes), not read further (GET ${hostile.url}/flood-page)`,
    )
    // The server writes only as fast as the client reads: a few socket buffers past the limit, not 256 MiB.
    await expect.poll(() => hostile.sent.get('/flood-page')?.bytes).toBeGreaterThan(0)
    const sent = hostile.sent.get('/flood-page')!
    expect(sent.complete).toBe(false)
    expect(sent.bytes).toBeLessThan(FLOOD_BYTES / 4)
  })

  it('refuses a content-length over the limit before reading the body', async () => {
    const error = await failure(clientFor({ maxResponseBytes: MiB }).getPage('/declared-page'))
    expect(error).toMatchObject({ code: 'API_TOO_LARGE', message: expect.stringContaining('/declared-page') })
    expect(hostile.sent.get('/declared-page')?.complete).toBe(false)
    expect(hostile.sent.get('/declared-page')?.bytes ?? 0).toBeLessThan(FLOOD_BYTES / 4)
  })

  it('refuses a whole answer whose content-length is over the limit, and its dropped body is no unhandled error', async () => {
    // The demo API sends a page with its content-length at once: the body is there, unread, when it is dropped.
    const site = resolveSiteOptions({ api: { maxResponseBytes: 1000 } }, [])
    const client = createApiClient({ ...site, api: { ...site.api, baseUrl: demo.url } })
    const unhandled: unknown[] = []
    const onError = (error: unknown) => unhandled.push(error)
    process.on('uncaughtException', onError)
    try {
      const error = await failure(client.getPage('/about-us'))
      expect(error).toMatchObject({ code: 'API_TOO_LARGE', message: expect.stringContaining('/about-us') })
      // undici reports a destroyed body on a later turn
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(unhandled).toEqual([])
    } finally {
      process.off('uncaughtException', onError)
    }
  })

  it('reads an answer of exactly the limit, and refuses one byte more', async () => {
    const size = Buffer.byteLength(TRICKLE_BODY)
    const fast = await startHostileApi({ trickleEveryMs: 1 })
    const clientOf = (maxResponseBytes: number) => {
      const site = resolveSiteOptions({ api: { maxResponseBytes } }, [])
      return createApiClient({ ...site, api: { ...site.api, baseUrl: fast.url } })
    }
    try {
      expect(await clientOf(size).getPage('/trickle')).toMatchObject({
        type: 'page',
        data: { meta: { title: 'Slow' } },
      })
      expect(await failure(clientOf(size - 1).getPage('/trickle'))).toMatchObject({ code: 'API_TOO_LARGE' })
    } finally {
      await fast.close()
    }
  })
})

describe('a build against an API that trickles and floods', () => {
  let tools: BuildTools
  let dir: string
  beforeAll(async () => {
    tools = await loadBuildTools()
    dir = await mkdtemp(join(tmpdir(), 'site-api-limits-'))
  }, 60_000)
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('lists the two pages as failures with their codes, and writes no output', async () => {
    // The demo API links /about-us and /contact from its navigation; the proxy breaks exactly those.
    const proxy = await startHostileApi({
      upstream: demo.url,
      floodBytes: FLOOD_BYTES,
      paths: { '/about-us': 'flood', '/contact': 'trickle' },
    })
    try {
      const out = join(dir, 'out')
      const result = await buildSite({
        apiUrl: proxy.url,
        outDir: out,
        tools,
        // Generous: the deadline holds for every page of the build, and a loaded machine must not push an ordinary one past it.
        user: { baseUrl: BASE_URL, api: { timeoutMs: 3_000, maxResponseBytes: 4 * MiB } },
      })
      expect(result.failures).toEqual([
        {
          kind: 'API_TOO_LARGE',
          path: '/about-us',
          status: 502,
          reason: expect.stringMatching(/^answer larger than 4194304 bytes .*\/about-us\)$/),
          from: 'initial data (en)',
        },
        {
          kind: 'API_TIMEOUT',
          path: '/contact',
          status: 504,
          reason: expect.stringMatching(/^no complete answer within 3000 ms .*\/contact\)$/),
          from: expect.any(String),
        },
      ])
      expect(proxy.sent.get('/about-us')!.bytes).toBeLessThan(FLOOD_BYTES / 4)
      expect(await readdir(dir)).toEqual([])
    } finally {
      await proxy.close()
    }
  }, 60_000)
})

describe('site preview against an API that trickles and floods', () => {
  it('answers 504 and 502 instead of hanging or reading everything', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'site-api-limits-preview-'))
    const proxy = await startHostileApi({
      upstream: demo.url,
      floodBytes: FLOOD_BYTES,
      paths: { '/about-us': 'flood', '/contact': 'trickle' },
    })
    try {
      const { handle } = await makeHandler({
        apiUrl: proxy.url,
        registry: await loadTestRegistry(cacheDir),
        user: { ...DEMO_OPTIONS, api: { ...DEMO_OPTIONS.api, timeoutMs: 600, maxResponseBytes: 4 * MiB } },
      })
      const slow = await handle(new Request('http://localhost/contact'))
      expect(slow.status).toBe(504)
      expect(await slow.text()).toContain('no complete answer within 600 ms')
      expect(proxy.sent.get('/contact')?.complete).toBe(false)
      const huge = await handle(new Request('http://localhost/about-us'))
      expect(huge.status).toBe(502)
      expect(await huge.text()).toContain(`answer larger than ${4 * MiB} bytes (api.maxResponseBytes)`)
      expect(proxy.sent.get('/about-us')!.bytes).toBeLessThan(FLOOD_BYTES / 4)
    } finally {
      await proxy.close()
      await rm(cacheDir, { recursive: true, force: true })
    }
  }, 60_000)
})
