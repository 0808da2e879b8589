/**
 * Redirect targets with raw non-ASCII in their query or hash were once written as
 * they were, and `site serve` and preview then answered 500 (a header carries ASCII only). The
 * one redirect rule percent-encodes them and refuses control characters, for the build (its
 * `_redirects`, redirect pages and payloads), `site serve` over that output, and preview.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildResult } from '../../src/build/types.js'
import { resolveConfig } from '../../src/config/load.js'
import { type PreviewServer, startPreviewServer } from '../../src/preview/server.js'
import { type RunningServer, startStaticServer } from '../../src/serve/server.js'
import { buildSite, loadBuildTools, REPO_ROOT } from './build-helpers.js'
import { type ScriptedApi, startScriptedApi } from './preview-helpers.js'

const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36' }
const HOME = {
  id: 1,
  type: 'Standard',
  slug: '/',
  meta: { title: 'Home' },
  appearance: { layout: 'layout-0', backendLayout: 'default' },
  content: { colPos0: [] },
  i18n: [],
}
/** Redirect source -> [target the API sends, Location expected]. */
const ENCODED: Record<string, [string, string]> = {
  '/go/query': ['/?q=zażółć gęślą#sekcja-ü', '/?q=za%C5%BC%C3%B3%C5%82%C4%87%20g%C4%99%C5%9Bl%C4%85#sekcja-%C3%BC'],
  '/go/external': [
    'https://www.example.org/szukaj?q=żółw#ą',
    'https://www.example.org/szukaj?q=%C5%BC%C3%B3%C5%82w#%C4%85',
  ],
}
const CONTROL = '/go/control'
const links = [...Object.keys(ENCODED), CONTROL]

let api: ScriptedApi
let dir: string
let result: BuildResult
let serve: RunningServer
let preview: PreviewServer

beforeAll(async () => {
  api = await startScriptedApi({
    '/?type=834': {
      body: { navigation: links.map((link) => ({ title: link, link, children: [] })), i18n: [] },
    },
    '/': { body: HOME },
    ...Object.fromEntries(
      Object.entries(ENCODED).map(([from, [to]]) => [from, { body: { redirectUrl: to, statusCode: 301 } }]),
    ),
    [CONTROL]: { body: { redirectUrl: '/?next=\u0085evil', statusCode: 302 } },
  })
  dir = await mkdtemp(join(tmpdir(), 'site-redirect-encoding-'))
  // With the redirect pages hosts without `_redirects` need, so that their encoding is checked too.
  const user = { i18n: { default: 'en', locales: ['en'] }, build: { redirectPages: true } }
  result = await buildSite({ apiUrl: api.url, outDir: join(dir, 'out'), tools: await loadBuildTools(), user })
  serve = await startStaticServer({ dir: join(dir, 'out'), host: '127.0.0.1', port: 0 })
  const inline = { root: REPO_ROOT, apiBaseUrl: api.url }
  const config = await resolveConfig(inline)
  preview = await startPreviewServer({ config, inline, host: '127.0.0.1', port: 0, watch: false, log: () => {} })
}, 120_000)

afterAll(async () => {
  await Promise.all([serve?.close(), preview?.close(), api?.close()])
  if (dir) await rm(dir, { recursive: true, force: true })
})

const locationOf = async (url: string): Promise<{ status: number; location: string | null }> => {
  const res = await fetch(url, { redirect: 'manual', headers: BROWSER })
  await res.arrayBuffer()
  return { status: res.status, location: res.headers.get('location') }
}

describe('redirect targets with non-ASCII query and hash', () => {
  it('the build writes them percent-encoded in _redirects, redirect pages and payloads', async () => {
    expect(result.failures).toEqual([])
    const lines = (await readFile(join(dir, 'out/_redirects'), 'utf8')).trim().split('\n')
    expect(lines).toEqual(
      Object.entries(ENCODED)
        .map(([from, [, to]]) => `${from} ${to} 301`)
        .sort(),
    )
    for (const [from, [, to]] of Object.entries(ENCODED)) {
      const payload = JSON.parse(await readFile(join(dir, 'out', from, '_payload.json'), 'utf8'))
      expect(payload.redirect).toEqual({ to, statusCode: 301 })
      expect(await readFile(join(dir, 'out', from, 'index.html'), 'utf8')).toContain(`url=${to}">`)
    }
  })

  it('refuses a target with a control character, and lists it', () => {
    expect(result.redirects.map((r) => r.from)).not.toContain(CONTROL)
    expect(result.skipped).toContainEqual(
      expect.objectContaining({
        item: `${CONTROL} -> /?next=\u0085evil`,
        reason: 'control character',
      }),
    )
  })

  it('site serve answers them with an ASCII Location', async () => {
    for (const [from, [, to]] of Object.entries(ENCODED))
      expect(await locationOf(`${serve.url}${from}`), from).toEqual({ status: 301, location: to })
  })

  it('preview answers them with an ASCII Location, and refuses the control character', async () => {
    for (const [from, [, to]] of Object.entries(ENCODED))
      expect(await locationOf(`${preview.url}${from}`), from).toEqual({ status: 301, location: to })
    expect(await locationOf(`${preview.url}${CONTROL}`)).toEqual({ status: 502, location: null })
  })
})
