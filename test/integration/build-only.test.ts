/**
 * `site build --only <uid|path>`: a partial build from a CMS event asks the API
 * only for the named pages (every locale) and the pages whose previous answer linked to them,
 * renders the rest from what the previous output kept when navigation or templates changed, and
 * writes exactly what a full build over the same API state writes.
 */
import { cp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BuildResult } from '../../src/build/types.js'
import type { BuildSummary } from '../../src/cli/report.js'
import type { DemoApi } from '../../src/demo/server.js'
import { BUILD_STORE_FILE } from '../../src/shared/layout.js'
import {
  BASE_URL,
  type BuildTools,
  buildSite,
  diffTrees,
  type EditableDemo,
  editFile,
  readFileIdentities,
  readTree,
  replaceInContent,
  startEditableDemo,
  startSite,
} from './build-helpers.js'

let api: DemoApi
let tools: BuildTools
let dir: string
let content: string
let out: string
let builds = 0

const build = (options: { only?: string[]; outDir?: string; baseUrl?: string } = {}) =>
  buildSite({
    apiUrl: api.url,
    outDir: options.outDir ?? out,
    tools,
    only: options.only,
    user: { baseUrl: options.baseUrl ?? BASE_URL },
  })

/** A copy of OUT as it is now: the previous output a full build is run over, to compare with a partial build. */
async function twinOfOutput(): Promise<string> {
  const twin = join(dir, `twin-${++builds}`)
  await cp(out, twin, { recursive: true })
  return twin
}

/** A full build over `twin` (a copy of the previous output) and the API as it is now: what a partial build must equal. */
async function expectSameAsFullBuild(twin: string): Promise<void> {
  const full = await build({ outDir: twin })
  expect(full.failures).toEqual([])
  expect(full.only).toBeUndefined()
  expect(diffTrees(await readTree(twin), await readTree(out))).toEqual([])
  await rm(twin, { recursive: true, force: true })
}

/** Page paths the API was asked for since `from` (initial data, the 404 probes and the CMS's files left out). */
const pageRequests = (from: number) =>
  api.requests
    .slice(from)
    .filter((r) => r.query.type === undefined && !r.path.includes('__site-404__') && !r.path.startsWith('/fileadmin/'))
    .map((r) => decodeURI(r.path).replace(/\/$/, '') || '/')

/**
 * Paths whose last answer was a redirect or a 404, as the previous output's state records them: an
 * `--only` build asks the API for them again (a stored answer is evidence, never an answer).
 */
async function storedAnswers(): Promise<string[]> {
  const state = (await readFile(join(out, BUILD_STORE_FILE), 'utf8')).split('\n', 1)[0]!
  const head = JSON.parse(state) as {
    redirects: Array<{ from: string; kind: string }>
    notFound: Array<{ path: string }>
  }
  return [...head.redirects.filter((r) => r.kind === 'api').map((r) => r.from), ...head.notFound.map((n) => n.path)]
}

/** Deletes the page `uid` in every language, and every link to it, as a CMS does. */
async function deletePage(uid: number): Promise<string[]> {
  const site = JSON.parse(await readFile(join(content, 'site.json'), 'utf8')) as {
    languages: Array<{ twoLetterIsoCode: string; base: string }>
  }
  const paths: string[] = []
  for (const { twoLetterIsoCode: code, base } of site.languages) {
    for (const name of await readdir(join(content, 'pages', code))) {
      const file = join(content, 'pages', code, name)
      const page = JSON.parse(await readFile(file, 'utf8')) as { id: number; slug: string }
      if (page.id !== uid) continue
      paths.push(`${base.replace(/\/$/, '')}${page.slug}`.replace(/\/$/, '') || '/')
      await unlink(file)
    }
  }
  const links = new Set(paths)
  const drop = (value: unknown): unknown => {
    if (Array.isArray(value))
      return value
        .filter((v) => !(v && typeof v === 'object' && links.has((v as { link?: string }).link ?? '')))
        .map(drop)
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, drop(v)]))
    if (typeof value === 'string')
      return [...links].reduce(
        (text, path) => text.replace(new RegExp(`<a [^>]*href="${path}"[^>]*>(.*?)</a>`, 'g'), '$1'),
        value,
      )
    return value
  }
  for (const folder of ['pages/en', 'pages/pl', 'pages/de', 'initial-data']) {
    for (const name of await readdir(join(content, folder))) {
      const file = join(content, folder, name)
      await writeFile(file, JSON.stringify(drop(JSON.parse(await readFile(file, 'utf8')))))
    }
  }
  return paths
}

let demo: EditableDemo

beforeAll(async () => {
  demo = await startEditableDemo('site-only-')
  ;({ dir, content, api, tools } = demo)
  out = join(dir, 'out')
  expect((await build()).failures).toEqual([])
}, 120_000)

afterAll(() => demo?.close())

describe('site build --only', () => {
  it('asks the API only for the page in every locale after an edit of its content, and equals a full build', async () => {
    await editFile(join(content, 'pages/en/about-us.json'), 'Amberline Software was founded', 'Amberline was founded')
    await editFile(join(content, 'pages/pl/o-nas.json'), 'Założyło je trzech', 'Założyło je czterech')
    await api.reload()
    const [before, ids, twin] = await Promise.all([readTree(out), readFileIdentities(out), twinOfOutput()])
    const askedAgain = await storedAnswers()
    expect(askedAgain.length).toBeGreaterThan(0)
    const from = api.requests.length
    const result = await build({ only: ['2'] })
    expect(result.failures).toEqual([])
    expect(result.only).toMatchObject({ requested: ['2'], unknownUids: [], rerenderedLocales: [] })
    expect(result.only?.fallback).toBeUndefined()
    const refetched = result.only!.refetched
    // its content elements changed, nothing other pages show of it: no linking page is asked again
    expect(refetched).toEqual(['/about-us', '/de/ueber-uns', '/pl/o-nas'])
    const requested = pageRequests(from)
    expect(new Set(requested)).toEqual(new Set([...refetched, ...askedAgain]))
    expect(requested.length).toBeLessThan(result.pages.total / 2)
    // only files whose bytes changed were written: the two pages in two locales, and the manifests
    const [after, idsAfter] = await Promise.all([readTree(out), readFileIdentities(out)])
    const rewritten = [...idsAfter].filter(([path, id]) => ids.get(path) !== id).map(([path]) => path)
    expect(rewritten.sort()).toEqual(diffTrees(before, after).filter((path) => after.has(path)))
    expect(rewritten.filter((path) => !path.startsWith('_site/builds/')).sort()).toEqual([
      'about-us/_payload.json',
      'about-us/index.html',
      'pl/o-nas/_payload.json',
      'pl/o-nas/index.html',
    ])
    await expectSameAsFullBuild(twin)
  })

  it('asks again for the pages linking to a page whose properties other pages show changed', async () => {
    await editFile(join(content, 'pages/en/about-us.json'), '"abstract": "Who we are:', '"abstract": "Who we are now:')
    await api.reload()
    const twin = await twinOfOutput()
    const askedAgain = await storedAnswers()
    const from = api.requests.length
    const result = await build({ only: ['2'] })
    expect(result.failures).toEqual([])
    const refetched = result.only!.refetched
    expect(refetched).toEqual(
      expect.arrayContaining(['/about-us', '/pl/o-nas', '/de/ueber-uns', '/about-us/team', '/']),
    )
    // the pages linking to the English page only: the other locales' pages show nothing that changed
    expect(refetched).not.toContain('/pl/o-nas/zespol')
    expect(new Set(pageRequests(from))).toEqual(new Set([...refetched, ...askedAgain]))
    await expectSameAsFullBuild(twin)
  })

  it('renders every page of a locale whose navigation changed from kept data, with no page request for them', async () => {
    await editFile(join(content, 'initial-data/de.json'), '"title": "Kontakt"', '"title": "Kontakt & Anfahrt"')
    await api.reload()
    const [before, twin] = await Promise.all([readTree(out), twinOfOutput()])
    const askedAgain = await storedAnswers()
    const from = api.requests.length
    const result = await build({ only: ['16'] })
    expect(result.failures).toEqual([])
    expect(result.only?.rerenderedLocales).toEqual(['de'])
    expect(new Set(pageRequests(from))).toEqual(new Set([...result.only!.refetched, ...askedAgain]))
    const after = await readTree(out)
    const dePages = result.pages.paths.filter((p) => p.startsWith('/de'))
    for (const path of dePages) {
      const html = `${path.slice(1)}/index.html`
      expect(after.get(html)?.toString(), html).toContain('Kontakt &amp; Anfahrt')
    }
    expect(diffTrees(before, after).filter((p) => p.startsWith('pl/') || p.startsWith('about-us'))).toEqual([])
    await expectSameAsFullBuild(twin)
  })

  it('removes a page that now answers 404 from the output, sitemap and manifests, and rebuilds the pages that linked to it', async () => {
    const paths = await deletePage(15)
    expect(paths).toContain('/news/new-office-in-berlin')
    await api.reload()
    const twin = await twinOfOutput()
    const result = await build({ only: ['15'] })
    expect(result.failures).toEqual([])
    for (const path of paths) {
      expect(result.pages.paths).not.toContain(path)
      expect(await readdir(join(out, ...path.split('/').slice(1, -1)))).not.toContain(path.split('/').pop())
    }
    expect(await readFile(join(out, 'sitemap.xml'), 'utf8')).not.toContain('new-office-in-berlin')
    const meta = JSON.parse(await readFile(join(out, `_site/builds/meta/${result.buildId}.json`), 'utf8'))
    expect(meta.prerendered).not.toContain('/news/new-office-in-berlin')
    expect(await readFile(join(out, 'news/index.html'), 'utf8')).not.toContain('/news/new-office-in-berlin')
    await expectSameAsFullBuild(twin)
  })

  it("writes the sitemap again when a page's sitemap facts changed (it keeps it when none did)", async () => {
    const careers = join(content, 'pages/en/careers.json')
    const page = JSON.parse(await readFile(careers, 'utf8'))
    page.meta.robots.noIndex = true
    await writeFile(careers, JSON.stringify(page))
    await api.reload()
    const [ids, twin] = await Promise.all([readFileIdentities(out), twinOfOutput()])
    const result = await build({ only: ['12'] })
    expect(result.failures).toEqual([])
    const sitemap = await readFile(join(out, 'sitemap.xml'), 'utf8')
    expect(sitemap).not.toContain('/careers<')
    expect(sitemap).toContain('/pl/kariera<')
    expect((await readFileIdentities(out)).get('sitemap.xml')).not.toBe(ids.get('sitemap.xml'))
    await expectSameAsFullBuild(twin)
  })

  it('says which paths no page has it did not ask the API about, past the pages it asks ahead', async () => {
    const named = Array.from({ length: 501 }, (_, i) => `/pl/nope-${i}`)
    const result = await build({ only: named })
    expect(result.failures).toEqual([])
    expect(result.notes).toContainEqual(
      '--only /pl/nope-500: no page of the previous build has this path; not asked of the API, as more than 500 pages are named',
    )
  })

  it('takes page paths too, and reports a uid or a path no page has without failing', async () => {
    const page = join(content, 'pages/pl/kontakt.json')
    await writeFile(page, JSON.stringify({ ...JSON.parse(await readFile(page, 'utf8')), extra: 'x' }))
    await api.reload()
    const twin = await twinOfOutput()
    const result = await build({ only: ['/pl/kontakt', '987654', '/pl/kontaktt'] })
    expect(result.failures).toEqual([])
    expect(result.only?.unknownUids).toEqual([987654])
    expect(result.only?.unknownPaths).toEqual(['/pl/kontaktt'])
    expect(result.notes).toContainEqual(expect.stringContaining('--only 987654: no page of the previous build has'))
    expect(result.notes).toContainEqual(
      '--only /pl/kontaktt: no page of the previous build has this path, nor has the API (nothing to rebuild for it)',
    )
    expect(result.only?.refetched).toEqual(expect.arrayContaining(['/contact', '/pl/kontakt', '/de/kontakt']))
    await expectSameAsFullBuild(twin)
  })

  it('takes the new path of a page whose slug changed as its uid: its old path redirects, the pages linking to it change', async () => {
    for (const file of [
      'pages/pl/nota-prawna.json',
      'pages/en/imprint.json',
      'pages/de/impressum.json',
      'initial-data/pl.json',
    ])
      await editFile(join(content, file), '"/pl/nota-prawna"', '"/pl/nota-prawna-nowa"')
    await editFile(join(content, 'pages/pl/nota-prawna.json'), '"/nota-prawna"', '"/nota-prawna-nowa"')
    await api.reload()
    const twin = await twinOfOutput()
    // the webhook names the page where it is now, a path the previous build did not have
    const result = await build({ only: ['/pl/nota-prawna-nowa'] })
    expect(result.failures).toEqual([])
    expect(result.only?.refetched).toEqual(expect.arrayContaining(['/pl/nota-prawna', '/imprint', '/de/impressum']))
    expect(result.pages.paths).not.toContain('/pl/nota-prawna')
    expect(await readFile(join(out, '_redirects'), 'utf8')).toMatch(/^\/pl\/nota-prawna \/pl\/nota-prawna-nowa 301$/m)
    expect(await readFile(join(out, 'imprint/index.html'), 'utf8')).toContain('/pl/nota-prawna-nowa')
    await expectSameAsFullBuild(twin)
  })

  it("rebuilds, through their breadcrumbs, the subpages whose paths changed with their parent's slug", async () => {
    // the CMS renames /de/aktuelles (uid 13): its subpages' slugs and every link to them change with it
    await replaceInContent(content, '/de/aktuelles', '/de/neuigkeiten')
    // (a page an earlier test removed is gone from the CMS)
    for (const name of await readdir(join(content, 'pages/de')))
      if (name.startsWith('aktuelles')) await editFile(join(content, 'pages/de', name), '"/aktuelles', '"/neuigkeiten')
    await api.reload()
    const twin = await twinOfOutput()
    const result = await build({ only: ['13'] })
    expect(result.failures).toEqual([])
    expect(result.only?.refetched).toEqual(
      expect.arrayContaining(['/de/aktuelles', '/de/aktuelles/iso-27001-zertifizierung']),
    )
    const redirects = await readFile(join(out, '_redirects'), 'utf8')
    expect(redirects).toMatch(
      /^\/de\/aktuelles\/iso-27001-zertifizierung \/de\/neuigkeiten\/iso-27001-zertifizierung 301$/m,
    )
    await expectSameAsFullBuild(twin)
  })

  it('drops from the media record a CMS file that the pages it asked again no longer show, as a full build does', async () => {
    const pdf = 'case-study-baltic-freight.pdf'
    const record = () => readFile(join(out, '_site/builds/media.json'), 'utf8')
    expect(await record()).toContain(pdf)
    // the only pages showing it (uid 10, every locale) drop the element that did
    for (const file of [
      'pages/en/case-studies--logistics-platform.json',
      'pages/pl/realizacje--platforma-logistyczna.json',
      'pages/de/referenzen--logistikplattform.json',
    ]) {
      const page = JSON.parse(await readFile(join(content, file), 'utf8')) as { content: Record<string, unknown[]> }
      const shows = (element: unknown) => JSON.stringify(element).includes(pdf)
      for (const [column, elements] of Object.entries(page.content))
        page.content[column] = elements.filter((element) => !shows(element))
      expect(JSON.stringify(page)).not.toContain(pdf)
      await writeFile(join(content, file), JSON.stringify(page))
    }
    await api.reload()
    const twin = await twinOfOutput()
    const result = await build({ only: ['10'] })
    expect(result.failures).toEqual([])
    // its copy stays as a file of an earlier build (build.keepBuilds), but this build took it from no page
    expect(await record()).not.toContain(pdf)
    await expectSameAsFullBuild(twin)
  })

  it('names the page uid of a kept page whose content links to a path the API answers 404', async () => {
    const careers = join(content, 'pages/en/careers.json')
    const before = await readFile(careers, 'utf8')
    await editFile(careers, 'Send your CV', 'Read <a href=\\"/no-such-page\\">this</a>. Send your CV')
    await api.reload()
    const broken = { kind: 'BROKEN_CONTENT_LINK', item: '/no-such-page', from: '/careers', pageUid: 12 }
    expect((await build({ only: ['12'] })).skipped).toContainEqual(expect.objectContaining(broken))
    // /careers is kept as it is now: its link is still checked, and still named by its page
    const result = await build({ only: ['2'] })
    expect(result.only?.refetched).not.toContain('/careers')
    expect(result.skipped).toContainEqual(expect.objectContaining(broken))
    await writeFile(careers, before)
    await api.reload()
    expect((await build({ only: ['12'] })).failures).toEqual([])
  })

  it('builds a new page named by its path: its parent, which lists it, is asked again', async () => {
    const page = JSON.parse(await readFile(join(content, 'pages/en/news--iso-27001-certification.json'), 'utf8'))
    // a slug with a letter outside ASCII: the CMS writes it as it is, the build keeps its path encoded
    const entry = { title: 'Release', link: '/news/release-ż', target: '', active: 0, current: 0, spacer: 0 }
    page.id = 30
    page.slug = '/news/release-ż'
    page.breadcrumbs[page.breadcrumbs.length - 1] = { ...entry, current: 1 }
    await writeFile(join(content, 'pages/en/news--release.json'), JSON.stringify(page))
    // listed by /news only (in a content element's menu), not in navigation
    const newsFile = join(content, 'pages/en/news.json')
    const news = JSON.parse(await readFile(newsFile, 'utf8')) as {
      content: { colPos0: Array<{ content: { menu?: unknown[] } }> }
    }
    news.content.colPos0
      .find((element) => Array.isArray(element.content.menu))
      ?.content.menu?.push({ ...entry, hasSubpages: 0 })
    await writeFile(newsFile, JSON.stringify(news))
    await api.reload()
    const twin = await twinOfOutput()
    const result = await build({ only: ['/news/release-ż'] })
    expect(result.failures).toEqual([])
    expect(result.pages.paths).toContain('/news/release-%C5%BC')
    await expectSameAsFullBuild(twin)
  })
})

describe('site build --only without a usable previous output', () => {
  const fallbackOf = (result: BuildResult) => result.only?.fallback

  it('builds every page, and says why: no previous output', async () => {
    const other = join(dir, 'first')
    const result = await build({ only: ['2'], outDir: other })
    expect(result.failures).toEqual([])
    expect(fallbackOf(result)).toBe('there is no previous output')
    expect(result.pages.total).toBeGreaterThan(40)
  })

  it('another config, a damaged or older build state', async () => {
    const other = join(dir, 'first')
    expect(fallbackOf(await build({ only: ['2'], outDir: other, baseUrl: 'https://www.example.org' }))).toContain(
      'configuration',
    )
    const storeFile = join(other, BUILD_STORE_FILE)
    const [first = '', ...lines] = (await readFile(storeFile, 'utf8')).split('\n')
    await writeFile(
      storeFile,
      [JSON.stringify({ ...JSON.parse(first), engine: '0.0.1+000000000000' }), ...lines].join('\n'),
    )
    expect(fallbackOf(await build({ only: ['2'], outDir: other }))).toBe(
      'the previous output was built by another version of site',
    )
    await writeFile(storeFile, '{ "format": 2, ')
    expect(fallbackOf(await build({ only: ['2'], outDir: other }))).toContain('does not start with a JSON object')
  })

  it('refuses items that are neither a uid nor a page path, naming them', async () => {
    await expect(build({ only: ['2', 'about-us', '/a/../b'] })).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining('"about-us", "/a/../b"'),
    })
  })

  it('through the CLI: --only items, the JSON summary, and exit code 2 for a bad item', async () => {
    const cliOut = join(dir, 'cli')
    expect((await startSite(['build', '--api', api.url, '--out', cliOut]).done).code).toBe(0)
    const res = await startSite([
      'build',
      '--api',
      api.url,
      '--out',
      cliOut,
      '--only',
      '2,/pl/kontakt',
      '--only',
      '13',
      '--json',
    ]).done
    expect(res.code).toBe(0)
    const summary = JSON.parse(res.stdout) as BuildSummary
    expect(summary.only).toMatchObject({ requested: ['2', '/pl/kontakt', '13'], unknownUids: [] })
    expect(summary.only?.fallback).toBeUndefined()
    expect(summary.changes.pages).toMatchObject({ added: [], changed: [], removed: [] })
    expect(summary.changes.pages.unchanged).toBe(summary.pages.total)
    expect(summary.filesWritten).toBe(0)
    expect(summary.filesKept).toBeGreaterThan(summary.pages.total * 2)
    const byFile = await startSite([
      'build',
      ...['--api', api.url, '--out', cliOut, '--json'],
      ...['--only', 'file:/fileadmin/images/people/anna-kowalska.svg,file:/fileadmin/nowhere.jpg'],
    ]).done
    expect(byFile.code).toBe(0)
    const fileSummary = JSON.parse(byFile.stdout) as BuildSummary
    expect(fileSummary.only).toMatchObject({
      refetched: ['/about-us/team', '/de/ueber-uns/team', '/pl/o-nas/zespol'],
      unknownFiles: ['file:/fileadmin/nowhere.jpg'],
    })
    const bad = await startSite(['build', '--api', api.url, '--out', cliOut, '--only', '2,about,file:']).done
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('"about", "file:"')
  }, 90_000)
})

describe('site build --only over pages it renders from their kept data', () => {
  it('holds them to build.maxPageBytes as a full build does: the page too large fails, OUT untouched', async () => {
    const own = await startEditableDemo('site-only-limit-')
    try {
      const buildOwn = (outDir: string, maxPageBytes: number, only?: string[]) =>
        buildSite({
          apiUrl: own.api.url,
          outDir,
          tools: own.tools,
          only,
          user: { baseUrl: BASE_URL, build: { maxPageBytes } },
        })
      const limitOut = join(own.dir, 'out')
      expect((await buildOwn(limitOut, 10_000_000)).failures).toEqual([])
      const largest = Math.max(
        ...[...(await readTree(limitOut))]
          .filter(([file]) => file.endsWith('index.html'))
          .map(([, bytes]) => bytes.length),
      )
      // the same output under the limit every page of the next builds is held to
      const limit = largest + 1_000
      expect((await buildOwn(limitOut, limit)).failures).toEqual([])
      // a navigation title every German page shows, now some kilobytes longer
      await editFile(
        join(own.content, 'initial-data/de.json'),
        '"title": "Kontakt"',
        `"title": "Kontakt ${'x'.repeat(3_000)}"`,
      )
      await own.api.reload()
      const [before, twin] = await Promise.all([readTree(limitOut), join(own.dir, 'twin')])
      await cp(limitOut, twin, { recursive: true })
      const only = await buildOwn(limitOut, limit, ['16'])
      expect(only.only?.rerenderedLocales).toEqual(['de'])
      const full = await buildOwn(twin, limit)
      const kinds = (result: BuildResult) => [...new Set(result.failures.map((f) => f.kind))]
      expect(kinds(full)).toEqual(['PAGE_TOO_LARGE'])
      expect(kinds(only)).toEqual(['PAGE_TOO_LARGE'])
      expect(diffTrees(before, await readTree(limitOut))).toEqual([])
    } finally {
      await own.close()
    }
  })

  it('renders again a kept page over a limit lowered since the previous build: it fails as in a full build', async () => {
    const own = await startEditableDemo('site-only-lowered-')
    try {
      const out = join(own.dir, 'out')
      const buildOwn = (maxPageBytes: number, only?: string[]) =>
        buildSite({ apiUrl: own.api.url, outDir: out, tools: own.tools, only, user: { build: { maxPageBytes } } })
      expect((await buildOwn(10_000_000)).failures).toEqual([])
      const before = await readTree(out)
      const largest = Math.max(
        ...[...before].filter(([file]) => file.endsWith('index.html')).map(([, bytes]) => bytes.length),
      )
      // nothing changed in the CMS; only the largest page is over the new limit, and it is not named
      const only = await buildOwn(largest - 1, ['16'])
      expect([...new Set(only.failures.map((f) => f.kind))]).toEqual(['PAGE_TOO_LARGE'])
      expect(diffTrees(before, await readTree(out))).toEqual([])
    } finally {
      await own.close()
    }
  })
})
