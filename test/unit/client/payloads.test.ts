import { describe, expect, it } from 'vitest'
import { fetchPayload, toPayloadRequestUrl } from '../../../src/client/payloads.js'

const page = { id: 1, meta: { title: 'A' }, appearance: {}, content: {} }
const answer =
  (body: unknown, status = 200) =>
  async () =>
    new Response(typeof body === 'string' ? body : JSON.stringify(body), { status })

describe('payload requests', () => {
  it('carry the client version in the query', () => {
    expect(toPayloadRequestUrl('/', 'c1')).toBe('/_payload.json?_b=c1')
    expect(toPayloadRequestUrl('/pl/o-nas', 'a b')).toBe('/pl/o-nas/_payload.json?_b=a%20b')
  })

  it("are revalidated with the host: one that sends no Cache-Control must not leave an older build's payload cached", async () => {
    // nginx, python -m http.server, S3 without metadata: the browser would keep a payload last modified 30 days
    // ago for 3 days, and show it after a build changed that page (its manifest check clears only the tab's cache).
    let asked: RequestInit | undefined
    await fetchPayload({
      path: '/a',
      clientVersion: 'c1',
      fetch: async (_url, init) => {
        asked = init
        return new Response('{}')
      },
    })
    expect(asked?.cache).toBe('no-cache')
  })

  it('classify the answer: page, redirect, full load (404, not JSON, other client code), error', async () => {
    const run = (fetch: (url: string, init: RequestInit) => Promise<Response>) =>
      fetchPayload({ path: '/a', clientVersion: 'c1', fetch })
    await expect(
      run(answer({ clientVersion: 'c1', locale: 'en', path: '/a', status: 200, page })),
    ).resolves.toMatchObject({
      type: 'page',
    })
    await expect(
      run(answer({ clientVersion: 'c1', locale: 'en', path: '/a', redirect: { to: '/b', statusCode: 301 } })),
    ).resolves.toEqual({ type: 'redirect', to: '/b', statusCode: 301 })
    await expect(run(answer('nope', 404))).resolves.toEqual({ type: 'full-load', reason: 'not-found' })
    await expect(run(answer('<!doctype html><html>'))).resolves.toEqual({ type: 'full-load', reason: 'not-json' })
    await expect(run(answer({ hello: 1 }))).resolves.toEqual({ type: 'full-load', reason: 'not-json' })
    await expect(run(answer({ clientVersion: 'c2', locale: 'en', path: '/a', status: 200, page }))).resolves.toEqual({
      type: 'full-load',
      reason: 'other-client',
    })
    // a payload of an older engine, with a build id and no client version, is not one this code renders
    await expect(run(answer({ buildId: 'c1', locale: 'en', path: '/a', status: 200, page }))).resolves.toEqual({
      type: 'full-load',
      reason: 'not-json',
    })
    await expect(run(answer('boom', 503))).resolves.toMatchObject({ type: 'error' })
    await expect(run(async () => Promise.reject(new TypeError('Failed to fetch')))).resolves.toEqual({
      type: 'error',
      message: 'Failed to fetch',
    })
    // Given up by its timeout: the page is loaded in full at once, not asked for again (as long a wait once more).
    await expect(
      run(async () => Promise.reject(new DOMException('signal timed out', 'TimeoutError'))),
    ).resolves.toEqual({ type: 'full-load', reason: 'timeout' })
  })

  it('follow a redirect only to a path of the site or an http(s) URL, as a build writes them', async () => {
    const redirect = (to: string) =>
      fetchPayload({
        path: '/a',
        clientVersion: 'c1',
        fetch: answer({ clientVersion: 'c1', locale: 'en', path: '/a', redirect: { to, statusCode: 301 } }),
      })
    for (const to of ['/b?x=1#top', 'https://www.example.com/x', 'HTTP://example.com'])
      await expect(redirect(to), to).resolves.toMatchObject({ type: 'redirect', to })
    for (const to of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      '//evil.example/x',
      '/\\evil.example',
      'b',
      'data:,x',
      'https:///x',
    ])
      await expect(redirect(to), to).resolves.toEqual({ type: 'full-load', reason: 'not-json' })
  })

  it('load a page in full whose payload holds no page as a build writes it: no empty or half page on the client', async () => {
    const run = (value: unknown) =>
      fetchPayload({
        path: '/a',
        clientVersion: 'c1',
        fetch: answer({ clientVersion: 'c1', locale: 'en', path: '/a', status: 200, page: value }),
      })
    const notPages: unknown[] = [
      {},
      { id: 1 },
      [],
      { ...page, id: '1' },
      { ...page, meta: undefined },
      { ...page, appearance: null },
      { ...page, content: undefined },
      { ...page, content: [] },
      { ...page, content: { colPos0: 'x' } },
      { ...page, content: { colPos0: [null, 5] } },
    ]
    for (const value of notPages)
      await expect(run(value), JSON.stringify(value)).resolves.toEqual({ type: 'full-load', reason: 'not-json' })
    // A page without content elements is one.
    await expect(run(page)).resolves.toMatchObject({ type: 'page' })
    await expect(run({ ...page, content: { colPos0: [], colPos1: [] } })).resolves.toMatchObject({ type: 'page' })
  })

  it('load a page in full whose payload is of another page: a host answering one payload for every path shows no page under another URL', async () => {
    const run = (body: Record<string, unknown>) =>
      fetchPayload({
        path: '/careers',
        clientVersion: 'c1',
        fetch: answer({ clientVersion: 'c1', locale: 'en', ...body }),
      })
    await expect(run({ path: '/', status: 200, page })).resolves.toEqual({ type: 'full-load', reason: 'other-page' })
    await expect(run({ path: '/', redirect: { to: '/b', statusCode: 301 } })).resolves.toEqual({
      type: 'full-load',
      reason: 'other-page',
    })
    await expect(run({ path: '/careers', status: 200, page })).resolves.toMatchObject({ type: 'page' })
  })
})
