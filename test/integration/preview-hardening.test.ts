/**
 * Preview's answers to the wrong host, to `?debug`, and when the API is down or failing.
 * Handler tests: a Request in, a Response out.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { UserConfig } from '../../src/config/types.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import type { TemplateRegistry } from '../../src/shared/contract.js'
import { closedPort } from './ports.js'
import { DEMO_OPTIONS, loadTestRegistry, makeHandler, readBoot } from './preview-helpers.js'

let cacheDir: string
let registry: TemplateRegistry
let api: DemoApi

beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'site-preview-hardening-'))
  ;[registry, api] = await Promise.all([loadTestRegistry(cacheDir), startDemoApi({ port: 0 })])
}, 60_000)
afterAll(async () => {
  await api?.close()
  await rm(cacheDir, { recursive: true, force: true })
})
beforeEach(() => api.setFaults([]))

describe('preview answers only the hosts it is meant for (DNS rebinding)', () => {
  const options = (over: UserConfig = {}): UserConfig => ({
    ...DEMO_OPTIONS,
    baseUrl: 'https://www.amberline.example',
    ...over,
  })
  /** `/about-us` asked for by each of `hosts` answers `status` (bodies read: no stream left open). */
  const expectStatus = async (
    handle: (request: Request) => Promise<Response>,
    hosts: readonly string[],
    status: number,
  ): Promise<void> => {
    for (const host of hosts) {
      const res = await handle(new Request('http://127.0.0.1:3000/about-us', { headers: { host } }))
      await res.text()
      expect(res.status, host).toBe(status)
    }
  }

  it('refuses another Host with 403 and a line that says how to allow it, once on the terminal', async () => {
    const lines: string[] = []
    const { handle } = await makeHandler({ apiUrl: api.url, registry, user: options(), log: (l) => lines.push(l) })
    for (const path of ['/about-us', '/about-us/_payload.json', '/_site/data/initial-en.json', '/favicon.ico']) {
      const res = await handle(new Request(`http://127.0.0.1:3000${path}`, { headers: { host: 'attacker.example' } }))
      expect(res.status, path).toBe(403)
      expect(await res.text(), path).toBe(
        '403 Forbidden: site preview does not answer for host "attacker.example". To allow it, add it to preview.allowedHosts in the site configuration.\n',
      )
    }
    // A rebound name with a port, as a browser sends it.
    const withPort = await handle(new Request('http://attacker.example:3000/about-us'))
    expect(withPort.status).toBe(403)
    await withPort.text()
    expect(lines).toEqual([
      'preview: refused requests for host "attacker.example" (403): to allow it, add it to preview.allowedHosts',
    ])
  })

  it('answers loopback names, the baseUrl host and the allowed hosts', async () => {
    const { handle } = await makeHandler({
      apiUrl: api.url,
      registry,
      user: options({
        preview: {
          queryParam: 'pce',
          allowedHosts: ['preview.example.com', '.staging.example', '10.0.0.7', '[FD00:0:0::5]', '2001:db8::1'],
        },
      }),
    })
    const hosts = [
      'localhost:3000',
      '127.0.0.1:3000',
      '[::1]:3000',
      'editor.localhost',
      'www.amberline.example',
      'PREVIEW.example.com:443',
      'a.staging.example',
      'staging.example',
      '10.0.0.7:3000',
      // an address on the editors' network, as a browser names it: brackets, short form, a port or none
      '[fd00::5]:3000',
      '[fd00::5]',
      '[2001:db8::1]:3000',
    ]
    await expectStatus(handle, hosts, 200)
    await expectStatus(
      handle,
      ['example.com', 'preview.example.com.attacker.example', 'xstaging.example', '10.0.0.5', '[fd00::6]:3000'],
      403,
    )
  })

  it('answers the fully-qualified loopback names (trailing dot), not names that only contain one', async () => {
    const { handle } = await makeHandler({ apiUrl: api.url, registry, user: options() })
    const fullyQualified = [
      'localhost.',
      'localhost.:3000',
      'LOCALHOST.',
      'editor.localhost.',
      'editor.localhost.:3000',
    ]
    await expectStatus(handle, fullyQualified, 200)
    const refused = [
      'localhost.evil.com',
      'localhost.evil.com.',
      'editor.localhost.evil.com',
      'evil.com.',
      'localhost..',
      'localhost.example',
      '127.0.0.1.evil.com',
    ]
    await expectStatus(handle, refused, 403)
  })

  it('answers the hostnames of configured sites', async () => {
    const { handle } = await makeHandler({
      apiUrl: api.url,
      registry,
      user: { ...DEMO_OPTIONS, sites: [{ hostname: ['www.example.com'] }] },
    })
    const res = await handle(new Request('http://www.example.com/about-us'))
    expect(res.status).toBe(200)
    await res.text()
    // its fully-qualified name (the root's dot) is the same host
    await expectStatus(handle, ['www.example.com.', 'WWW.example.com.:3000'], 200)
    await expectStatus(handle, ['www.example.com..'], 403)
  })
})

describe('?debug', () => {
  it('is ignored unless preview runs with features.debug: no raw API error, no stack trace', async () => {
    const { handle } = await makeHandler({ apiUrl: api.url, registry })
    api.setFaults([{ path: '/services', kind: 'status500' }])
    const res = await handle(new Request('http://localhost:3000/services?debug'))
    expect(res.status).toBe(500)
    const html = await res.text()
    expect(html).not.toContain('Internal Server Error (demo fault)')
    expect(html).not.toContain(`${api.url}/services`)
    expect(readBoot(html).state).toMatchObject({ debug: false, error: { status: 500, message: 'HTTP 500' } })
    expect(readBoot(html).state.error).not.toHaveProperty('raw')
  })

  it('with features.debug shows the failed request without the API password or query token', async () => {
    const secretUrl = `${api.url.replace('http://', 'http://editor:pa55word-x@')}/?token=SEKRIT-1234`
    const user = { ...DEMO_OPTIONS, features: { ...DEMO_OPTIONS.features, debug: true } }
    const { handle } = await makeHandler({ apiUrl: secretUrl, registry, user })
    const apiAt = `http://***@${api.url.slice('http://'.length)}`
    api.setFaults([{ path: '/services', kind: 'status500' }])
    const page = await (await handle(new Request('http://localhost:3000/services?debug'))).text()
    expect(readBoot(page).state.error).toMatchObject({ raw: { url: `${apiAt}/services?token=***` } })
    api.setFaults([{ path: '/', query: 'type=834', kind: 'status503' }])
    const initial = await (await handle(new Request('http://localhost:3000/services?debug'))).text()
    expect(initial).toContain(`${apiAt}/?token=***&amp;type=834`)
    expect(`${page}${initial}`).not.toMatch(/pa55word|SEKRIT/)
  })
})

describe('the API address stays out of what visitors see', () => {
  it('on the error page, also when the query holds ")"', async () => {
    // Every query parameter passed on as it came (api.allowQuery: true, the default).
    const user = { ...DEMO_OPTIONS, api: { ...DEMO_OPTIONS.api, allowQuery: true } }
    const { handle } = await makeHandler({ apiUrl: api.url, registry, user })
    api.setFaults([{ path: '/services', kind: 'status503' }])
    for (const query of ['', '?a=)', '?x=(1)&y=2', '?q=%29)']) {
      const res = await handle(new Request(`http://localhost:3000/services${query}`))
      expect(res.status, query).toBe(503)
      const html = await res.text()
      // (The demo's initial data links its backend on the API's host: content, not an error.)
      expect(html, query).not.toContain(`${api.url}/services`)
      expect(readBoot(html).state.error, query).toEqual({ status: 503, message: 'HTTP 503' })
    }
  })

  it('in the live initial data and payload answers', async () => {
    const { handle } = await makeHandler({ apiUrl: api.url, registry })
    api.setFaults([
      { path: '/', query: 'type=834', kind: 'status503' },
      { path: '/services', kind: 'status503' },
    ])
    for (const path of ['/_site/data/initial-en.json', '/services/_payload.json?cHash=)']) {
      const res = await handle(new Request(`http://localhost:3000${path}`))
      expect(res.status, path).toBe(503)
      const body = await res.text()
      expect(body, path).not.toContain(api.url)
      expect(JSON.parse(body).message, path).toMatch(/HTTP 503$/)
    }
  })
})

describe('preview with the API down', () => {
  it('names the cause on the page and, with the API address and the option to check, on the terminal', async () => {
    const port = await closedPort()
    const lines: string[] = []
    const { handle, ctx } = await makeHandler({
      apiUrl: `http://127.0.0.1:${port}`,
      registry,
      log: (line) => lines.push(line),
    })
    for (const path of ['/about-us', '/', '/_site/data/initial-en.json']) {
      const res = await handle(new Request(`http://localhost:3000${path}`))
      expect(res.status, path).toBe(500)
      const body = await res.text()
      expect(body, path).not.toContain(`127.0.0.1:${port}`)
      if (path.endsWith('.json')) continue
      expect(body).toContain('Error 500')
      expect(body).toContain(
        'The content API did not answer (ECONNREFUSED). Check api.baseUrl in the site configuration (or --api) and that the API is running (for the demo: npx site demo-api)',
      )
    }
    // One line while it stays down.
    expect(lines).toEqual([
      `preview: the content API at http://127.0.0.1:${port} did not answer (ECONNREFUSED, GET http://127.0.0.1:${port}/?type=834): check api.baseUrl in ${ctx.config.configFile} (or --api URL) and that the API is running (for the demo: npx site demo-api)`,
    ])

    // Back up on the same address: one line says so.
    const back = await startDemoApi({ port })
    try {
      const res = await handle(new Request('http://localhost:3000/about-us'))
      expect(res.status).toBe(200)
      await res.text()
      expect(lines.slice(1)).toEqual([`preview: the content API at http://127.0.0.1:${port} answers again`])
    } finally {
      await back.close()
    }
  })
})
