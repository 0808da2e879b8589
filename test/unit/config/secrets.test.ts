import { describe, expect, it } from 'vitest'
import { siteSecrets, toApiOrigin } from '../../../src/config/secrets.js'
import { redactSecrets } from '../../../src/errors.js'

const site = (baseUrl: string, headers: Record<string, string> = {}) => ({ api: { baseUrl, headers } }) as never

describe('what a site hides from printed lines', () => {
  it('names the API by its origin only', () => {
    expect(toApiOrigin('https://user:pw@cms.example.com:8443/api/v1?token=abcd#x')).toBe('https://cms.example.com:8443')
    expect(toApiOrigin('not a url')).toBe('')
  })

  it('hides the password, query values and header values, longest first', () => {
    const secrets = siteSecrets(
      site('http://editor:p%40ss-word@127.0.0.1:4010/?token=t0k3n-value&L=1', { authorization: 'Bearer abc.def.ghi' }),
    )
    expect(secrets[0]).toBe('Bearer abc.def.ghi')
    expect([...secrets].sort()).toEqual([
      'Bearer abc.def.ghi',
      'abc.def.ghi',
      'p%40ss-word',
      'p@ss-word',
      't0k3n-value',
    ])
    const line = 'GET http://editor:p%40ss-word@127.0.0.1:4010/?token=t0k3n-value&L=1/x sent Bearer abc.def.ghi'
    expect(redactSecrets(line, secrets)).toBe('GET http://***@127.0.0.1:4010/?token=***&L=1/x sent ***')
  })

  it('hides any URL userinfo even without the site', () => {
    expect(redactSecrets('see https://a:b@h.example/x and http://h2/y')).toBe(
      'see https://***@h.example/x and http://h2/y',
    )
  })
})
