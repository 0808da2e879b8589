/** `site build` through the real CLI (bin/site.js, compiled dist/): exit codes, JSON summary, progress off stdout. */
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildSummary } from '../../src/cli/report.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { readTree } from './build-helpers.js'
import { runSite } from './cli-helpers.js'

const site = (args: string[]) => runSite(args)

let api: DemoApi
let dir: string

beforeAll(async () => {
  api = await startDemoApi({ port: 0 })
  dir = await mkdtemp(join(tmpdir(), 'site-build-cli-'))
})

afterAll(async () => {
  await api?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('site build (CLI)', () => {
  it('exits 0 and prints the summary as JSON on stdout with --json', async () => {
    const out = join(dir, 'out')
    const res = await site(['build', '--api', api.url, '--out', out, '--json'])
    expect(res.stderr).not.toContain('Error')
    expect(res.code).toBe(0)
    const summary = JSON.parse(res.stdout) as BuildSummary
    expect(summary).toMatchObject({ ok: true, outDir: out, failures: [] })
    expect(Object.keys(summary.pages.byLocale)).toEqual(['en', 'pl', 'de'])
    expect(summary.pages.total).toBeGreaterThan(40)
    expect(summary.redirects.length).toBeGreaterThan(0)
    expect(summary.bytesWritten).toBeGreaterThan(0)
    expect(existsSync(join(out, 'pl/index.html'))).toBe(true)
    // off a terminal: a line per locale on stderr, nothing per page
    expect(res.stderr).toContain('pl: initial data in')
  }, 60_000)

  it('exits 1, lists the failure and keeps the previous output when a page fails', async () => {
    const out = join(dir, 'out')
    const before = await readTree(out)
    api.setFaults([{ path: '/de/kontakt', kind: 'status500' }])
    const res = await site(['build', '--api', api.url, '--out', out])
    api.setFaults([])
    expect(res.code).toBe(1)
    expect(res.stdout).toMatch(/Failures \(1\):\n {2}\/de\/kontakt {2}500 {2}API_HTTP {2}HTTP 500/)
    expect(res.stdout).toContain('was left as it was')
    const after = await readTree(out)
    expect([...after.keys()]).toEqual([...before.keys()])
    for (const [path, bytes] of after) expect(bytes.equals(before.get(path)!), path).toBe(true)
  }, 60_000)

  it('names a failed page by the API host, never by the credentials in --api', async () => {
    const out = join(dir, 'out')
    const url = new URL(api.url)
    url.username = 'ci-user'
    url.password = 'pw-s3cret-9'
    api.setFaults([{ path: '/de/kontakt', kind: 'status500' }])
    const res = await site(['build', '--api', url.href, '--out', out, '--json'])
    api.setFaults([])
    expect(res.code).toBe(1)
    const summary = JSON.parse(res.stdout) as BuildSummary
    expect(summary.failures).toMatchObject([{ path: '/de/kontakt', status: 500, kind: 'API_HTTP' }])
    expect(summary.failures[0]!.reason).toContain(`GET http://***@${url.host}/de/kontakt`)
    expect(res.stderr).toContain(`error API_HTTP /de/kontakt 500: HTTP 500 (GET http://***@${url.host}/de/kontakt)`)
    for (const text of [res.stdout, res.stderr]) expect(text).not.toMatch(/pw-s3cret-9|ci-user/)
  }, 60_000)

  it('exits 1 with "Initial Data is unavailable" when the initial data endpoints answer 503', async () => {
    api.setFaults([{ path: '/', query: 'type=834', kind: 'status503' }])
    const res = await site(['build', '--api', api.url, '--out', join(dir, 'never')])
    api.setFaults([])
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(/^Initial Data is unavailable: HTTP 503/m)
    expect(existsSync(join(dir, 'never'))).toBe(false)
  }, 60_000)

  it('exits 2 when --out would replace the project', async () => {
    const res = await site(['build', '--api', api.url, '--out', '.'])
    expect(res.code).toBe(2)
    expect(res.stderr).toContain('Refusing to build into')
  })
})
