import { describe, expect, it } from 'vitest'
import { buildIssues, errors, FetchError } from '../../src/errors.js'

describe('error catalogue', () => {
  it('pins the wording of every message', () => {
    expect(errors.initialDataUnavailable('HTTP 503 (GET x)', 503).message).toBe(
      'Initial Data is unavailable: HTTP 503 (GET x)',
    )
    expect(errors.initialDataUnavailable('boom').status).toBe(500)
    expect(errors.pageNotFound('/x').message).toBe('Page not found: /x')
    expect(errors.routeInvalid('/x').message).toBe('Page Not Found: /x')
    expect(errors.routeInvalid('/x').status).toBe(404)
    expect(errors.hostnameNotFound('a.b').message).toBe('Hostname: a.b not found in sites configuration')
    expect(errors.routeMiddleware().message).toBe('Unknown route middleware error')
  })
  it("cuts a page's canonical URL to 200 characters in the reason it is left out of the sitemap", () => {
    const canonical = `https://www.example.com/${'a'.repeat(50_000)}`
    expect(buildIssues.canonicalElsewhere(canonical).reason).toBe(
      `left out of the sitemap: its canonical names another page (${canonical.slice(0, 200)}…)`,
    )
    expect(buildIssues.canonicalElsewhere('https://www.example.com/').reason).toBe(
      'left out of the sitemap: its canonical names another page (https://www.example.com/)',
    )
  })
  it('keeps status and data on fetch errors', () => {
    const error = new FetchError('API_HTTP', 'HTTP 500', { url: 'http://x/a', status: 500, data: { error: 'x' } })
    expect(error).toMatchObject({ status: 500, data: { error: 'x' }, code: 'API_HTTP', url: 'http://x/a' })
  })
})
