/**
 * Build and preview assemble a page in one place (src/render/assemble.ts). Over the
 * same API, with the same templates and client bundle, every page the build writes is the page
 * preview answers: the same <main>, the same managed head tags and preloads, the same payload,
 * but for what differs by design (build id, preview mode in the boot JSON, where initial data is,
 * and the URLs of the CMS files a build takes into its output, which preview links to the CMS).
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
/** A build's copy of a CMS file (`…/_site/media/<hash>/`) and the CMS's own URL (`<api>/fileadmin/…/`) alike: `MEDIA/`. */
let mediaPrefixes: RegExp[] = []
const withoutMediaUrls = (text: string): string =>
  mediaPrefixes
    .reduce((result, prefix) => result.replace(prefix, 'MEDIA/'), text)
    // a link to the CMS is external (rel="noopener"), one to the build's copy is not
    .replace(/(<a href="MEDIA\/[^"]*"[^>]*?) rel="noopener"/g, '$1')
/** What a build adds to a file it took (its size, its variants): preview has none. */
const withoutLocal = (key: string, value: unknown) => (key === 'local' ? undefined : value)
/** A payload without what differs by design: the build id, where the locale's initial data is, media URLs. */
const comparable = (json: string) => {
  const parsed = JSON.parse(withoutMediaUrls(json), withoutLocal) as Record<string, unknown>
  const { clientVersion: _id, initialDataUrl: _data, ...rest } = parsed
  return rest
}

describe('parity: site build and site preview render the same pages', () => {
  let api: Awaited<ReturnType<typeof startDemoApi>>
  let out: string
  let result: BuildResult
  let handle: (request: Request) => Promise<Response>
  let client: ClientBundle

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'site-parity-'))
    api = await startDemoApi({ port: 0 })
    const apiFiles = new RegExp(`${api.url.replace(/[.]/g, '\\.')}/fileadmin/(?:[^"'\\s/]+/)*`, 'g')
    mediaPrefixes = [/(?:https?:\/\/[^"'\s]*?)?\/_site\/media\/[0-9a-f]{20}\//g, apiFiles]
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
      const html = withoutMediaUrls(await res.text())
      const file = withoutMediaUrls(await built(toHtmlFile(path)))
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
