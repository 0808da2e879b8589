/**
 * Incremental, byte-stable builds: a build over a previous output writes only the files
 * whose bytes change, leaves the others as they were (same inode, same modification time) and
 * gives the same tree as a build from scratch. The CMS is a copy of the demo content, changed
 * between builds as an editor would.
 */
import { existsSync } from 'node:fs'
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { build as buildWith } from '../../src/build/build.js'
import { parseStore } from '../../src/build/incremental/store.js'
import type { BuildResult } from '../../src/build/types.js'
import type { DemoApi } from '../../src/demo/server.js'
import { readOutputFiles } from '../../src/deploy/output-files.js'
import { BUILD_STORE_FILE } from '../../src/shared/layout.js'
import {
  BASE_URL,
  type BuildTools,
  buildSite,
  diffTrees,
  type EditableDemo,
  editFile,
  LOCALES,
  makeConfig,
  REPO_ROOT,
  readFileIdentities,
  readTree,
  startEditableDemo,
} from './build-helpers.js'
import { checkRedirectsWithNetlify } from './output-validators.js'

let api: DemoApi
let tools: BuildTools
let dir: string
let content: string
let out: string
let first: BuildResult

const build = (outDir = out) => buildSite({ apiUrl: api.url, outDir, tools })
const unchanged = (a: Map<string, string>, b: Map<string, string>) =>
  [...a].filter(([path, id]) => b.get(path) === id).map(([path]) => path)

let demo: EditableDemo

beforeAll(async () => {
  demo = await startEditableDemo('site-incremental-')
  ;({ dir, content, api, tools } = demo)
  out = join(dir, 'out')
  first = await build()
  expect(first.failures).toEqual([])
}, 120_000)

afterAll(() => demo?.close())

describe('a build over its previous output', () => {
  it('rewrites no file when nothing changed: same bytes, same inodes, same modification times', async () => {
    const [tree, ids] = await Promise.all([readTree(out), readFileIdentities(out)])
    const again = await build()
    expect(again.failures).toEqual([])
    expect(again.buildId).toBe(first.buildId)
    expect(again.filesWritten).toBe(0)
    expect(again.bytesWritten).toBe(0)
    expect(again.filesKept).toBe(tree.size)
    expect(diffTrees(tree, await readTree(out))).toEqual([])
    expect(await readFileIdentities(out)).toEqual(ids)
    expect(existsSync(join(out, BUILD_STORE_FILE))).toBe(true)
  })

  it('rewrites nothing either when render workers render (they hand back no unchanged file)', async () => {
    const ids = await readFileIdentities(out)
    const again = await buildSite({
      apiUrl: api.url,
      outDir: out,
      tools: { bundleClient: tools.bundleClient },
      renderThreads: 1,
    })
    expect(again.failures).toEqual([])
    expect(again.filesWritten).toBe(0)
    expect(await readFileIdentities(out)).toEqual(ids)
  })

  it('rewrites only the changed page and the manifests when one page changed', async () => {
    const [tree, ids] = await Promise.all([readTree(out), readFileIdentities(out)])
    await editFile(join(content, 'pages/pl/o-nas.json'), 'Założyło je trzech', 'Założyło je czterech')
    await api.reload()
    const next = await build()
    expect(next.failures).toEqual([])
    expect(next.buildId).not.toBe(first.buildId)
    const after = await readTree(out)
    expect(diffTrees(tree, after)).toEqual(
      [
        BUILD_STORE_FILE,
        '_site/builds/latest.json',
        `_site/builds/meta/${first.buildId}.json`,
        `_site/builds/meta/${next.buildId}.json`,
        'pl/o-nas/_payload.json',
        'pl/o-nas/index.html',
      ].sort(),
    )
    expect(after.get('pl/o-nas/index.html')?.toString()).toContain('Założyło je czterech')
    expect(next.filesWritten).toBe(5)
    const idsAfter = await readFileIdentities(out)
    expect(unchanged(ids, idsAfter).length).toBe(tree.size - 5)
  })

  it('gives the same tree, byte for byte, as a build from scratch over the same API data', async () => {
    const fresh = join(dir, 'fresh')
    expect((await build(fresh)).failures).toEqual([])
    expect(diffTrees(await readTree(fresh), await readTree(out))).toEqual([])
  })

  it('removes what the API no longer has, with the folders left empty', async () => {
    const redirects = join(content, 'redirects.json')
    const rules = JSON.parse(await readFile(redirects, 'utf8')) as Array<{ source: string }>
    await editFile(redirects, JSON.stringify(rules, null, 2), JSON.stringify(rules.slice(1), null, 2))
    await api.reload()
    expect(existsSync(join(out, 'old-services/_payload.json'))).toBe(true)
    const next = await build()
    expect(next.failures).toEqual([])
    expect(next.redirects.map((r) => r.from)).not.toContain('/old-services')
    expect(existsSync(join(out, 'old-services'))).toBe(false)
    expect(await readFile(join(out, '_redirects'), 'utf8')).not.toContain('/old-services')
    const fresh = join(dir, 'fresh-2')
    expect((await build(fresh)).failures).toEqual([])
    expect(diffTrees(await readTree(fresh), await readTree(out))).toEqual([])
  })

  it('leaves OUT untouched when a page fails', async () => {
    const [tree, ids] = await Promise.all([readTree(out), readFileIdentities(out)])
    const page = join(content, 'pages/de/kontakt.json')
    await editFile(page, '"id": 16', '"id": 16, "x": 1')
    await api.reload()
    api.setFaults([{ path: '/de/kontakt', kind: 'status500' }])
    try {
      const failed = await build()
      expect(failed.failures.map((f) => f.path)).toEqual(['/de/kontakt'])
    } finally {
      api.setFaults([])
      await editFile(page, '"id": 16, "x": 1', '"id": 16')
      await api.reload()
    }
    expect(diffTrees(tree, await readTree(out))).toEqual([])
    expect(await readFileIdentities(out)).toEqual(ids)
  })

  it('starts from scratch when the previous build state is of another format or damaged, never half-using it', async () => {
    const tree = await readTree(out)
    const storeFile = join(out, BUILD_STORE_FILE)
    const text = await readFile(storeFile, 'utf8')
    const [firstLine = '', ...lines] = text.split('\n')
    const first = JSON.parse(firstLine) as Record<string, unknown>
    for (const damaged of [
      [JSON.stringify({ ...first, format: 1 }), ...lines].join('\n'),
      '{"format":2',
      [JSON.stringify({ ...first, pages: 7 }), ...lines].join('\n'),
      text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1),
    ]) {
      await writeFile(storeFile, damaged)
      const ids = await readFileIdentities(out)
      const next = await build()
      expect(next.failures).toEqual([])
      expect(next.filesKept).toBe(0)
      expect(next.filesWritten).toBe(tree.size)
      expect(unchanged(ids, await readFileIdentities(out))).toEqual([])
      expect(diffTrees(tree, await readTree(out))).toEqual([])
    }
  })
})

describe('the build state in OUT', () => {
  it('holds public facts only: no API URL, no API header', async () => {
    const secret = 'Bearer 7f3c9e1d-secret'
    const other = join(dir, 'with-headers')
    const built = await buildSite({
      apiUrl: api.url,
      outDir: other,
      tools,
      user: { baseUrl: BASE_URL, api: { headers: { authorization: secret } } },
    })
    expect(built.failures).toEqual([])
    // Pages and initial data show the CMS's images by their URLs; the manifests and the build state do not.
    const host = new URL(api.url).host
    for (const [path, bytes] of await readTree(other)) {
      expect(bytes.includes(secret), path).toBe(false)
      if (path.startsWith('_site/builds/')) expect(bytes.includes(host), path).toBe(false)
    }
    const parsed = parseStore(await readFile(join(other, BUILD_STORE_FILE), 'utf8'), {
      locales: [...LOCALES],
      maxPaths: 10_000,
    })
    if (!('store' in parsed)) throw new Error(parsed.reason)
    expect([...parsed.store.pages]).toContainEqual(expect.objectContaining({ path: '/pl/o-nas', locale: 'pl', uid: 2 }))
  })
})

describe('the content-hashed files of the last builds', () => {
  let root: string
  let projectOut: string

  /** A build of the demo with the templates of the project copy at `root`. */
  async function buildProject(keepBuilds: number): Promise<BuildResult> {
    const config = { ...makeConfig(api.url, { baseUrl: BASE_URL, build: { keepBuilds } }, projectOut), root }
    const result = await buildWith({ config, site: config.sites[0]!, renderThreads: 0 })
    expect(result.failures).toEqual([])
    return result
  }
  const assetsOf = async () => (await readdir(join(projectOut, '_site/assets'))).sort()

  beforeAll(async () => {
    root = await mkdtemp(join(REPO_ROOT, '.site', 'test-kept-builds-'))
    for (const folder of ['templates', 'config', 'public'])
      await cp(join(REPO_ROOT, folder), join(root, folder), { recursive: true })
    projectOut = join(dir, 'project-out')
  })
  afterAll(() => rm(root, { recursive: true, force: true }))

  it('stay in the output for keepBuilds builds that changed them, then go', async () => {
    const styles = join(root, 'templates/styles.css')
    const generations: string[][] = []
    for (let n = 1; n <= 4; n++) {
      await appendFile(styles, `\n.kept-build-${n} { color: #${n}${n}${n}; }\n`)
      await buildProject(3)
      const assets = await assetsOf()
      generations.push(assets)
    }
    // Each template change brings a new stylesheet; the last three builds' stay, the first one's goes.
    const stylesheets = generations.map((assets) => assets.filter((a) => a.startsWith('styles-')))
    expect(stylesheets.map((list) => list.length)).toEqual([1, 2, 3, 3])
    const [first, , , last] = stylesheets
    expect(last).not.toContain(first![0])
    // A build that changes no template keeps the same set.
    await buildProject(3)
    expect(await assetsOf()).toEqual(generations[3])
    // Lowered to one: only this build's files.
    await buildProject(1)
    expect((await assetsOf()).filter((a) => a.startsWith('styles-'))).toHaveLength(1)
  })

  it("publishes the generated sitemap over a public/ one, and a public file that only looks like a sitemap's part", async () => {
    await writeFile(join(root, 'public/sitemap.xml'), "<urlset>the project's own</urlset>\n")
    await writeFile(join(root, 'public/sitemap-1.xml'), '<urlset>a part of its own</urlset>\n')
    try {
      for (let n = 1; n <= 3; n++) {
        if (n === 3) await writeFile(join(root, 'public/sitemap-1.xml'), '<urlset>changed</urlset>\n')
        const result = await buildProject(3)
        expect(result.skipped).toContainEqual(
          expect.objectContaining({ kind: 'PUBLIC_FILE_SKIPPED', item: 'public/sitemap.xml' }),
        )
        expect(await readFile(join(projectOut, 'sitemap.xml'), 'utf8')).toContain(`<loc>${BASE_URL}/pl/o-nas</loc>`)
        expect(await readFile(join(projectOut, 'sitemap-1.xml'), 'utf8')).toContain(n === 3 ? 'changed' : 'its own')
      }
    } finally {
      await rm(join(root, 'public/sitemap.xml'))
      await rm(join(root, 'public/sitemap-1.xml'))
    }
  })

  // Without baseUrl the build writes no sitemap: the project's own was left out all the same, "the build writes its
  // own sitemap.xml" beside the note that it writes none, and the site had no sitemap at all.
  it('publishes a public/ sitemap as it is without baseUrl, where the build writes none', async () => {
    const own = "<urlset>the project's own</urlset>\n"
    await writeFile(join(root, 'public/sitemap.xml'), own)
    try {
      const outDir = join(dir, 'project-out-no-base-url')
      const config = { ...makeConfig(api.url, {}, outDir), root }
      // and so does the next build, over that output
      for (let n = 1; n <= 2; n++) {
        const result = await buildWith({ config, site: config.sites[0]!, renderThreads: 0 })
        expect(result.failures).toEqual([])
        expect(result.skipped).not.toContainEqual(expect.objectContaining({ item: 'public/sitemap.xml' }))
        expect(await readFile(join(outDir, 'sitemap.xml'), 'utf8')).toBe(own)
      }
    } finally {
      await rm(join(root, 'public/sitemap.xml'))
    }
  })

  it('publishes public files whose names have spaces, and the next build and a deploy take that output', async () => {
    // a brochure named as an editor saves it, and a macOS screenshot (U+202F before "AM"): the build copied
    // them and recorded them in its state, which it then refused to read ("a bad file entry"): every later build
    // rebuilt every page, and every `site deploy` exited 2 with DEPLOY_NO_OUTPUT
    const names = ['files/Company Profile 2025.pdf', 'Screenshot 2025-01-01 at 10.00.00\u202fAM.png']
    await cp(join(root, 'public/favicon.ico'), join(root, 'public', names[1]!))
    await cp(join(root, 'public/favicon.ico'), join(root, 'public', names[0]!))
    // a name a state cannot hold as a path (a line break): left out, and said so
    await writeFile(join(root, 'public/two\nlines.txt'), 'x')
    try {
      const built = await buildProject(3)
      expect(built.skipped).toContainEqual(
        expect.objectContaining({ kind: 'PUBLIC_FILE_SKIPPED', item: 'public/two\nlines.txt' }),
      )
      const again = await buildProject(3)
      expect(again.filesWritten).toBe(0)
      const site = makeConfig(api.url, { baseUrl: BASE_URL, build: { keepBuilds: 3 } }, projectOut).sites[0]!
      const { files } = await readOutputFiles(projectOut, site)
      for (const name of names) expect([name, files.has(name)]).toEqual([name, true])
      expect(files.has('two\nlines.txt')).toBe(false)
    } finally {
      await rm(join(root, 'public/files'), { recursive: true })
      await rm(join(root, 'public', names[1]!))
      await rm(join(root, 'public/two\nlines.txt'))
    }
  })

  it("adds the project's own _redirects rules after the API's, as Netlify reads them", async () => {
    // saved with a byte order mark, as some editors do: it must not land mid-file
    await writeFile(join(root, 'public/_redirects'), '\uFEFF/blog/* https://blog.example.com/:splat 301\n')
    try {
      const { redirects } = await buildProject(3)
      const [ours, theirs] = (await readFile(join(projectOut, '_redirects'), 'utf8')).split('# public/_redirects\n')
      expect(theirs).toBe('/blog/* https://blog.example.com/:splat 301\n')
      expect(ours!.split('\n').filter(Boolean)).toHaveLength(redirects.length)
      const netlify = await checkRedirectsWithNetlify(projectOut)
      expect(netlify.errors).toEqual([])
      expect(netlify.rules.map((r) => r.from)).toEqual([...redirects.map((r) => r.from), '/blog/*'])
    } finally {
      await rm(join(root, 'public/_redirects'))
    }
  })

  it('leaves out a public file where the build writes a page, in a first build and over a previous output', async () => {
    // a file `public/services` stands where the pages under /services need a folder: over a previous output it
    // replaced that folder (five pages gone, the build said all was unchanged), into an empty one every page
    // under it failed to write
    await buildProject(3)
    await writeFile(join(root, 'public/services'), 'a file\n')
    await mkdir(join(root, 'public/contact'))
    await writeFile(join(root, 'public/contact/index.html'), "<p>the project's own</p>\n")
    const fresh = join(dir, 'public-collision')
    try {
      for (const outDir of [projectOut, fresh]) {
        const config = { ...makeConfig(api.url, { baseUrl: BASE_URL, build: { keepBuilds: 3 } }, outDir), root }
        const result = await buildWith({ config, site: config.sites[0]!, renderThreads: 0 })
        expect(result.failures, outDir).toEqual([])
        if (outDir === projectOut)
          expect(result.changes.pages.unchanged, 'built over the previous output').toBeGreaterThan(0)
        for (const item of ['public/services', 'public/contact/index.html'])
          expect(result.skipped, outDir).toContainEqual(expect.objectContaining({ kind: 'PUBLIC_FILE_SKIPPED', item }))
        expect(await readFile(join(outDir, 'services/custom-software/index.html'), 'utf8')).toContain('<!doctype html>')
        expect(await readFile(join(outDir, 'contact/index.html'), 'utf8')).not.toContain("the project's own")
      }
    } finally {
      await rm(join(root, 'public/services'))
      await rm(join(root, 'public/contact'), { recursive: true })
    }
  })

  it('publishes its own 404 pages over public/ ones, in a first build and over a previous output', async () => {
    await writeFile(join(root, 'public/404.html'), "<p>the project's own</p>\n")
    try {
      for (let n = 1; n <= 2; n++) {
        await buildProject(3)
        const html = await readFile(join(projectOut, '404.html'), 'utf8')
        expect(html, `build ${n}`).toContain('<!doctype html>')
        expect(html, `build ${n}`).not.toContain("the project's own")
      }
    } finally {
      await rm(join(root, 'public/404.html'))
    }
  })
})

describe('redirects of the CMS that go round in a loop', () => {
  it('are written as they are, and the build notes name the loop', async () => {
    const redirects = join(content, 'redirects.json')
    const before = await readFile(redirects, 'utf8')
    const rules = JSON.parse(before) as unknown[]
    const loop = [
      { source: '/loop-a', redirectUrl: '/loop-b/', statusCode: 301 },
      { source: '/loop-b', redirectUrl: '/loop-a?from=b', statusCode: 302 },
      { source: '/into-the-loop', redirectUrl: '/loop-a', statusCode: 301 },
    ]
    await writeFile(redirects, JSON.stringify([...rules, ...loop], null, 2))
    const page = join(content, 'pages/en/services--support-maintenance.json')
    await editFile(page, 'href=\\"/old-services\\"', 'href=\\"/into-the-loop\\"')
    try {
      await api.reload()
      const result = await build(join(dir, 'loop'))
      expect(result.failures).toEqual([])
      expect(result.notes).toContain(
        '_redirects: 1 redirect loop(s) lead to no page (/loop-a -> /loop-b -> /loop-a); visitors of these paths get an error: change one redirect of each loop in the CMS',
      )
      expect(await readFile(join(dir, 'loop/_redirects'), 'utf8')).toContain('/loop-b /loop-a?from=b 302\n')
    } finally {
      await editFile(page, 'href=\\"/into-the-loop\\"', 'href=\\"/old-services\\"')
      await writeFile(redirects, before)
      await api.reload()
    }
  })
})
