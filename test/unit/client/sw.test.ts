/** public/sw.js, run against fake worker globals: what it caches, what it never touches, what it drops. */
import { readFileSync } from 'node:fs'
import { describe, expect, it, vi } from 'vitest'

const SOURCE = readFileSync(new URL('../../../public/sw.js', import.meta.url), 'utf8')
const ORIGIN = 'https://site.test'

function createCaches() {
  const stores = new Map<string, Map<string, Response>>()
  const keyOf = (request: Request | string) =>
    typeof request === 'string' ? new URL(request, ORIGIN).href : request.url
  const open = async (name: string) => {
    if (!stores.has(name)) stores.set(name, new Map())
    const store = stores.get(name) as Map<string, Response>
    return {
      match: async (request: Request | string) => store.get(keyOf(request))?.clone(),
      put: async (request: Request | string, response: Response) => void store.set(keyOf(request), response),
      keys: async () => [...store.keys()].map((url) => new Request(url)),
    }
  }
  return {
    stores,
    api: { open, keys: async () => [...stores.keys()], delete: async (name: string) => stores.delete(name) },
  }
}

function startWorker(network: (request: Request) => Promise<Response>) {
  const listeners = new Map<string, (event: unknown) => void>()
  const self = {
    addEventListener: (type: string, fn: (event: unknown) => void) => void listeners.set(type, fn),
    skipWaiting: vi.fn(),
    clients: { claim: vi.fn(async () => undefined) },
    location: { origin: ORIGIN },
  }
  const caches = createCaches()
  const fetchSpy = vi.fn(network)
  new Function('self', 'caches', 'fetch', SOURCE)(self, caches.api, fetchSpy)
  const dispatch = async (type: string, event: Record<string, unknown> = {}) => {
    const waits: Array<Promise<unknown>> = []
    let response: Promise<Response> | undefined
    listeners.get(type)?.({
      ...event,
      waitUntil: (p: Promise<unknown>) => waits.push(p),
      respondWith: (p: Promise<Response>) => (response = p),
    })
    await Promise.all(waits)
    return response
  }
  const get = (path: string) => dispatch('fetch', { request: new Request(`${ORIGIN}${path}`) })
  return { self, caches, fetchSpy, dispatch, get }
}

const ok = (body: string) => async () => new Response(body, { status: 200 })

describe('service worker (public/sw.js)', () => {
  it('takes over at once and drops caches of older worker versions', async () => {
    const worker = startWorker(ok('x'))
    await worker.caches.api.open('site-v0-build-old')
    await worker.caches.api.open('other-app')
    await worker.dispatch('install')
    await worker.dispatch('activate')
    expect(worker.self.skipWaiting).toHaveBeenCalled()
    expect(worker.self.clients.claim).toHaveBeenCalled()
    expect(await worker.caches.api.keys()).toEqual(['other-app'])
  })

  it('serves hashed assets cache first', async () => {
    const worker = startWorker(async () => new Response('code', { status: 200 }))
    // Node's Response has type 'default'; a browser's same-origin answer is 'basic'.
    worker.fetchSpy.mockImplementation(async () =>
      Object.defineProperty(new Response('code'), 'type', { value: 'basic' }),
    )
    await worker.dispatch('message', { data: { type: 'site:build', buildId: 'b1' } })
    const first = await worker.get('/_site/assets/entry-AB12.js')
    expect(await first?.text()).toBe('code')
    const second = await worker.get('/_site/assets/entry-AB12.js')
    expect(await second?.text()).toBe('code')
    expect(worker.fetchSpy).toHaveBeenCalledTimes(1)
    expect([...(worker.caches.stores.get('site-v1-build-b1')?.keys() ?? [])]).toEqual([
      `${ORIGIN}/_site/assets/entry-AB12.js`,
    ])
  })

  it.each([
    '/',
    '/about-us',
    '/about-us/_payload.json?_b=b1',
    '/_site/builds/latest.json',
    '/_site/data/initial-en-1.json',
    '/_site/assets/entry-AB12.js?v=1',
    '/sw.js',
  ])('never answers %s from a cache (the browser goes to the network)', async (path) => {
    const worker = startWorker(ok('x'))
    expect(await worker.get(path)).toBeUndefined()
  })

  it('leaves other origins and non-GET requests alone', async () => {
    const worker = startWorker(ok('x'))
    expect(
      await worker.dispatch('fetch', { request: new Request('https://cdn.test/_site/assets/a.js') }),
    ).toBeUndefined()
    expect(
      await worker.dispatch('fetch', {
        request: new Request(`${ORIGIN}/_site/assets/a.js`, { method: 'POST', body: 'x' }),
      }),
    ).toBeUndefined()
  })

  it('keeps the assets of the current and the previous build only', async () => {
    const worker = startWorker(ok('x'))
    for (const id of ['b1', 'b2', 'b3']) {
      await worker.dispatch('message', { data: { type: 'site:build', buildId: id } })
      await worker.caches.api.open(`site-v1-build-${id}`)
    }
    await worker.dispatch('message', { data: { type: 'site:build', buildId: 'b4' } })
    const builds = (await worker.caches.api.keys()).filter((name) => name.includes('-build-')).sort()
    expect(builds).toEqual(['site-v1-build-b3'])
    await worker.dispatch('message', { data: { type: 'site:build', buildId: 'b4' } })
    expect((await worker.caches.api.keys()).filter((name) => name.includes('-build-'))).toEqual(['site-v1-build-b3'])
  })
})
