import { describe, expect, it } from 'vitest'
import { baseUrlNotes } from '../../../src/build/stages.js'

const site = (baseUrl: string | undefined, api: string) =>
  ({ baseUrl, api: { baseUrl: api } }) as Parameters<typeof baseUrlNotes>[0]

describe("what the build notes of the site's baseUrl", () => {
  it('notes a site without one: no sitemap, and no Sitemap line in robots.txt', () => {
    expect(baseUrlNotes(site(undefined, 'https://cms.example.com/'))).toEqual([
      "baseUrl is not set: no sitemap.xml (its URLs must be absolute) and no Sitemap line in robots.txt (set baseUrl to the site's public origin)",
    ])
  })

  it("notes one on this machine while the API is not (the demo's config pointed at a real CMS)", () => {
    expect(baseUrlNotes(site('http://127.0.0.1:8080', 'https://cms.example.com/'))).toEqual([
      "baseUrl http://127.0.0.1:8080 is this machine, while the API is cms.example.com: canonical links, hreflang alternates, og:url, sitemap.xml and robots.txt point there (set baseUrl to the site's public origin)",
    ])
    expect(baseUrlNotes(site('http://localhost:3000', 'https://user:pw@cms.example.com/'))).toEqual([
      "baseUrl http://localhost:3000 is this machine, while the API is cms.example.com: canonical links, hreflang alternates, og:url, sitemap.xml and robots.txt point there (set baseUrl to the site's public origin)",
    ])
  })

  it('notes nothing for a public origin, or when the API is on this machine too (the demo, a local CMS)', () => {
    expect(baseUrlNotes(site('https://www.example.com', 'https://cms.example.com/'))).toEqual([])
    expect(baseUrlNotes(site('http://127.0.0.1:8080', 'http://127.0.0.1:4010/'))).toEqual([])
    expect(baseUrlNotes(site('http://localhost:8080', 'http://[::1]:4010/'))).toEqual([])
    // the API's credentials are no part of its host
    expect(baseUrlNotes(site('http://127.0.0.1:8080', 'http://ci-user:pw@127.0.0.1:4010/'))).toEqual([])
  })
})
