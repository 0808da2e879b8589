/**
 * The crawl once had no bounds (an API whose every page links to a new page
 * gave 70,000 pages in 30 s; a 100,000-entry navigation made each page 7 MB). `site build`
 * stops at `--max-pages` / `build.maxPages` and at `--max-page-bytes` / `build.maxPageBytes`,
 * with a failure naming the limit and where it was hit, exit 1, and OUT untouched.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildSummary } from '../../src/cli/report.js'
import { readTree } from './build-helpers.js'
import { runSite } from './cli-helpers.js'

/** Pages per locale the endless API stops linking at: enough to tell a bounded crawl from an unbounded one. */
const CHAIN_END = 400
const BIG_BYTES = 300_000

interface EndlessApi {
  url: string
  pageRequests: () => number
  close(): Promise<void>
}

/**
 * A content API on 127.0.0.1 where every page `/p/N` (of every locale) links to `/p/N+1`, up to
 * CHAIN_END; the English home also links to `/big`, a page of BIG_BYTES of text.
 */
async function startEndlessApi(): Promise<EndlessApi> {
  let pages = 0
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://api')
    const prefix = /^\/(pl|de)(\/|$)/.exec(url.pathname)?.[1]
    const base = prefix ? `/${prefix}` : ''
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
    }
    if (url.searchParams.get('type') === '834')
      return send(200, { navigation: [{ title: 'Home', link: base || '/', children: [] }], i18n: [] })
    const rest = url.pathname.slice(base.length) || '/'
    const n = rest === '/' ? 0 : rest === '/big' ? -1 : Number(/^\/p\/(\d+)$/.exec(rest)?.[1] ?? Number.NaN)
    if (Number.isNaN(n)) return send(404, { error: 'not found' })
    pages += 1
    const next = n >= 0 && n < CHAIN_END ? `<a href="${base}/p/${n + 1}">next</a>` : ''
    const big = n === 0 && !base ? '<a href="/big">big</a>' : ''
    const text = n === -1 ? `<p>${'x'.repeat(BIG_BYTES)}</p>` : `<p>${next}${big}</p>`
    send(200, {
      id: 1000 + n,
      type: 'Standard',
      meta: { title: `Page ${n}` },
      appearance: { backendLayout: 'default' },
      content: { colPos0: [{ id: 50_000 + n, type: 'text', content: { bodytext: text } }] },
      i18n: [],
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pageRequests: () => pages,
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}

let api: EndlessApi
let dir: string
let out: string

beforeAll(async () => {
  api = await startEndlessApi()
  dir = await mkdtemp(join(tmpdir(), 'site-build-limits-'))
  out = join(dir, 'out')
  // A previous output that a failed build must leave exactly as it is.
  for (const [file, text] of [
    ['index.html', '<!doctype html><title>previous</title>'],
    ['p/1/index.html', 'previous page'],
    ['_site/builds/latest.json', '{"id":"previous"}'],
  ] as const) {
    await mkdir(dirname(join(out, file)), { recursive: true })
    await writeFile(join(out, file), text)
  }
})

afterAll(async () => {
  await api?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

async function buildExpectingFailure(flags: string[]): Promise<BuildSummary> {
  const before = await readTree(out)
  const run = await runSite(['build', '--api', api.url, '--out', out, '--json', ...flags])
  expect(run.code, run.stderr).toBe(1)
  const after = await readTree(out)
  expect([...after.keys()]).toEqual([...before.keys()])
  for (const [path, bytes] of after) expect(bytes.equals(before.get(path)!), path).toBe(true)
  expect(await readdir(dir)).toEqual(['out'])
  return JSON.parse(run.stdout) as BuildSummary
}

describe('site build limits', () => {
  it('stops at --max-pages: one failure naming the limit and the link beyond it, OUT untouched', async () => {
    const requestsBefore = api.pageRequests()
    const summary = await buildExpectingFailure(['--max-pages', '60'])
    const requested = api.pageRequests() - requestsBefore
    expect(requested).toBeLessThanOrEqual(60)
    expect(summary.ok).toBe(false)
    const limits = summary.failures.filter((f) => f.kind === 'MAX_PAGES')
    expect(limits).toHaveLength(1)
    const [limit] = limits
    expect(limit!.reason).toContain('more than 60 pages (build.maxPages, --max-pages)')
    // where: the path one too many, and the page and content element that linked to it
    const [, base = '', n] = /^(\/pl|\/de)?\/p\/(\d+)$/.exec(limit!.path) ?? []
    expect(n, limit!.path).toBeDefined()
    const previous = Number(n) - 1
    expect(limit).toMatchObject({
      from: previous === 0 ? base || '/' : `${base}/p/${previous}`,
      pageUid: 1000 + previous,
      elementUid: 50_000 + previous,
    })
    expect(summary.pages.total).toBeLessThanOrEqual(60)
  }, 120_000)

  it('stops at --max-page-bytes: a failure naming the page, its size and the limit, OUT untouched', async () => {
    const summary = await buildExpectingFailure(['--max-page-bytes', '100000', '--max-pages', '30'])
    const tooLarge = summary.failures.filter((f) => f.kind === 'PAGE_TOO_LARGE')
    expect(tooLarge).toHaveLength(1)
    expect(tooLarge[0]).toMatchObject({ path: '/big', status: 500, pageUid: 999 })
    expect(tooLarge[0]!.reason).toMatch(
      /^the page's HTML is \d+ bytes, over the limit of 100000 \(build\.maxPageBytes, --max-page-bytes\)/,
    )
  }, 120_000)

  it('refuses a limit that is not a whole number above 0, naming the flag (exit 2)', async () => {
    for (const [flag, value] of [
      ['--max-pages', '0'],
      ['--max-page-bytes', 'lots'],
    ] as const) {
      const run = await runSite(['build', '--api', api.url, '--out', out, flag, value])
      expect(run.code).toBe(2)
      expect(run.stderr).toContain(`${flag}: expected a whole number greater than 0`)
    }
  })
})
