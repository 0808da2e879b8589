import { describe, expect, it } from 'vitest'
import { resolveSiteOptions } from '../../../src/config/resolve.js'
import type { ResolvedSite } from '../../../src/config/types.js'
import { toApiRequestHeaders, toProxiedResponseHeaders } from '../../../src/preview/api-headers.js'

const api = (over: Partial<ResolvedSite['api']>): ResolvedSite['api'] => ({
  ...resolveSiteOptions({}, []).api,
  baseUrl: 'http://127.0.0.1:1',
  timeoutMs: 1000,
  ...over,
})

const request = new Request('http://site.test/', {
  headers: {
    cookie: 'fe_typo_user=1',
    'accept-language': 'pl',
    authorization: 'Basic x',
    host: 'evil.test',
    'x-forwarded-for': '1.2.3.4',
  },
})

describe('toApiRequestHeaders', () => {
  it('forwards nothing by default', () => {
    expect(toApiRequestHeaders(request, api({}))).toEqual({})
  })
  it('forwards exactly the named headers', () => {
    expect(toApiRequestHeaders(request, api({ proxyReqHeaders: ['cookie', 'accept-language', 'x-missing'] }))).toEqual({
      cookie: 'fe_typo_user=1',
      'accept-language': 'pl',
    })
  })
  it('never forwards host or connection headers, even when named', () => {
    expect(toApiRequestHeaders(request, api({ proxyReqHeaders: ['host', 'connection', 'content-length'] }))).toEqual({})
  })
  it('forwards no cookie unless proxyReqHeaders names it, whatever credentials says', () => {
    expect(toApiRequestHeaders(request, api({ credentials: 'include' }))).toEqual({})
  })
})

describe('toProxiedResponseHeaders', () => {
  const answers: Array<Record<string, string>> = [
    { 'cache-control': 'max-age=10', 'set-cookie': 'a=1; Path=/', 'x-other': 'no' },
    {
      'cache-control': 'no-cache',
      'set-cookie': 'b=2; Expires=Wed, 21 Oct 2099 07:28:00 GMT\nc=3',
      'content-type': 'application/json',
    },
  ]
  it('copies nothing when proxyHeaders is false', () => {
    expect([...toProxiedResponseHeaders(answers, api({})).keys()]).toEqual([])
  })
  it('copies only the named headers, the last answer winning, cookies of every answer kept', () => {
    const out = toProxiedResponseHeaders(
      answers,
      api({ proxyHeaders: ['set-cookie', 'cache-control', 'content-type'] }),
    )
    expect(out.get('cache-control')).toBe('private, no-cache')
    expect(out.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Expires=Wed, 21 Oct 2099 07:28:00 GMT', 'c=3'])
    expect(out.has('x-other')).toBe(false)
    expect(out.has('content-type')).toBe(false)
  })
  it('skips missing answers', () => {
    const out = toProxiedResponseHeaders([undefined, answers[0]], api({ proxyHeaders: ['cache-control'] }))
    expect(out.get('cache-control')).toBe('private, max-age=10')
  })
  // an answer's headers are a plain object: a header named `constructor` found Object itself there
  it('copies a header named as a member of Object only when an answer has it', () => {
    const out = toProxiedResponseHeaders(answers, api({ proxyHeaders: ['constructor', '__proto__'] }))
    expect([...out.keys()]).toEqual([])
    const named = toProxiedResponseHeaders([{ constructor: 'x' }], api({ proxyHeaders: ['constructor'] }))
    expect(named.get('constructor')).toBe('x')
  })
  it('keeps a cache policy private: public and s-maxage go, private is added unless no-store says more', () => {
    const policy = (value: string) =>
      toProxiedResponseHeaders([{ 'cache-control': value }], api({ proxyHeaders: ['cache-control'] })).get(
        'cache-control',
      )
    expect(policy('public, max-age=3600, s-maxage=600')).toBe('private, max-age=3600')
    expect(policy('Public,max-age=60,S-MaxAge = 5')).toBe('private, max-age=60')
    expect(policy('private, max-age=60')).toBe('private, max-age=60')
    expect(policy('no-store')).toBe('no-store')
    expect(policy('public, no-store')).toBe('no-store')
  })
})
