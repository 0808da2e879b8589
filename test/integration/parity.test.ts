/**
 * Issue 11: build and preview assemble a page in one place (src/render/assemble.ts). Over the
 * same API, with the same templates and client bundle, every page the build writes is the page
 * preview answers: the same <main>, the same managed head tags and preloads, the same payload,
 * but for what differs by design (build id, preview mode in the boot JSON, where initial data is).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildResult } from '../../src/build/types.js'
import { startDemoApi } from '../../src/demo/server.js'
import type { ClientBundle } from '../../src/hydration/bundle.js'
import { toHtmlFile, toPayloadFile } from '../../src/shared/url.js'
import { clientModulesOf } from '../shared/client-modules.js'
import { buildSite, loadBuildTools } from './build-helpers.js'
import { DEMO_OPTIONS, loadTestRegistry, makeHandler } from './preview-helpers.js'

const mainOf = (html: string): string => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? ''
/** The head tags the render core writes for the page (marked), and the modulepreloads the hydration plan chose. */
const headOf = (html: string): string[] => {
  const head = /<head>([\s\S]*?)<\/head>/.exec(html)?.[1] ?? ''
  const marked = head.split('\n').filter((line) => line.includes('data-site-head'))
  return [...marked, ...clientModulesOf(html).preloads]
}
/** A payload without what differs by design: the build id and where the locale's initial data is. */
const comparable = (json: string) => {
  const { clientVersion: _id, initialDataUrl: _data, ...rest } = JSON.parse(json) as Record<string, unknown>
  return rest
}

describe('parity: site build and site preview render the same pages (issue 11)', () => {
  let api: Awaited<ReturnType<typeof startDemoApi>>
  let out: string
  let result: BuildResult
  let handle: (request: Request) => Promise<Response>
  let client: ClientBundle

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'site-parity-'))
    api = await startDemoApi({ port: 0 })
    const tools = await loadBuildTools()
    client = await tools.bundleClient()
    result = await buildSite({ apiUrl: api.url, outDir: join(out, 'public'), tools, user: DEMO_OPTIONS })
    const registry = await loadTestRegistry(join(out, 'cache'))
    ;({ handle } = await makeHandler({ apiUrl: api.url, registry, client }))
  }, 120_000)
  afterAll(async () => {
    await api?.close()
    await rm(out, { recursive: true, force: true })
  })

  const preview = (path: string) => handle(new Request(`http://127.0.0.1:3000${path}`))
  const built = (file: string) => readFile(join(out, 'public', file), 'utf8')

  it('builds the demo without failures', () => {
    expect(result.failures).toEqual([])
    expect(result.pages.total).toBeGreaterThan(50)
  })

  it('every page: the same main, managed head and preloads, and payload', async () => {
    const differing: string[] = []
    for (const path of result.pages.paths) {
      const res = await preview(path)
      const html = await res.text()
      const file = await built(toHtmlFile(path))
      if (res.status !== 200) differing.push(`${path}: preview answered ${res.status}`)
      if (mainOf(html) !== mainOf(file) || mainOf(file) === '') differing.push(`${path}: <main> differs`)
      if (JSON.stringify(headOf(html)) !== JSON.stringify(headOf(file)) || headOf(file).length < 2)
        differing.push(`${path}: head differs`)
      const payload = await (await preview(`${path === '/' ? '' : path}/_payload.json`)).text()
      expect(comparable(payload), path).toEqual(comparable(await built(toPayloadFile(path))))
    }
    expect(differing).toEqual([])
  })

  it('every redirect: the same redirect payload', async () => {
    expect(result.redirects.length).toBeGreaterThan(0)
    for (const { from } of result.redirects) {
      const payload = await (await preview(`${from}/_payload.json`)).text()
      expect(comparable(payload), from).toEqual(comparable(await built(toPayloadFile(from))))
    }
  })
})
