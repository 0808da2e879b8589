/**
 * Hostile content: the corpus in test/fixtures/hostile-site (plus a
 * generated 5 MB page) served by the demo API and built with `build()`.
 * Failure semantics (src/build/build.ts, stages.ts): only a navigation link the
 * API answers with 404, or an API/render/write error, fails a build (CLI exit 1,
 * OUT left as it was). The corpus links only to pages that exist from navigation,
 * so it must build with no failure (exit 0): every hostile value is refused or
 * repaired and listed in `result.skipped`, never a failure.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DemoRequest } from '../../src/demo/server.js'
import { startDemoApi } from '../../src/demo/server.js'
import {
  BIG_PAGE_MIN_BYTES,
  BIG_PAGE_PATH,
  buildHostileSite,
  copyHostileSite,
  findHtmlViolations,
  type HostileBuild,
  PROJECT_ROOT,
  SENTINEL,
  tokenizeHtml,
  VARIANTS,
  walkFiles,
  writeHostileConfig,
} from './hostile-helpers.js'

/** Links of the corpus that must never be fetched nor written (see test/fixtures/hostile-site/README.md). */
const HOSTILE_PATHS = [
  `/hostile/../../../${SENTINEL}`,
  `/hostile/%2e%2e/%2e%2e/${SENTINEL}`,
  `/hostile/a%2Fb%2F..%2F..%2F${SENTINEL}`,
  '/hostile/nul%00byte',
  `/hostile/${'a'.repeat(2000)}`,
  `/../../${SENTINEL}`,
  `/hostile%2F..%2F..%2F${SENTINEL}`,
  '/hostile%00.html',
  `/${'a'.repeat(2000)}`,
]
// A protocol-relative target is refused: build and preview share one redirect rule.
const REFUSED_REDIRECTS = [
  '/go/js',
  '/go/data',
  '/go/vbscript',
  '/go/spaces',
  '/go/dotdot',
  '/go/newline',
  '/go/protocol-relative',
]
const HOSTILE_PAGES = [
  '/xss/meta',
  '/xss/seo',
  '/xss/content',
  '/xss/links',
  '/xss/unicode',
  '/broken/types',
  '/broken/null-content',
  '/broken/list-content',
  '/broken/elements',
  '/broken/numbers-as-strings',
  '/broken/deep',
  '/pl/xss/tresc',
  '/pl/zepsute',
  '/de/xss/inhalt',
]
const LEVEL_4 = '/level-1/level-2/level-3/level-4'
const HOSTILE_SLUG = '/weird/"><img src=x onerror=window.__xss=1>'

let site: HostileBuild
let files: Array<{ path: string; symlink: boolean }>
let htmlFiles: string[]

const skippedText = () => site.result.skipped.map((s) => `${s.item} | ${s.kind} | ${s.reason} | ${s.from ?? ''}`)
const read = (path: string) => readFile(join(site.outDir, path), 'utf8')
/** The page requests of the build (initial data excluded), by decoded path. */
function pageRequests(requests: readonly DemoRequest[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const request of requests) {
    if (request.query.type !== undefined) continue
    let path = request.path
    try {
      path = decodeURIComponent(path)
    } catch {
      // kept as sent
    }
    path = path.length > 1 ? path.replace(/\/+$/, '') : path
    counts.set(path, (counts.get(path) ?? 0) + 1)
  }
  return counts
}

/** Runs bin/site.js without blocking this process (the demo API answers from it). */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'site.js'), ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, CI: 'true' },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', fail)
    child.on('close', (code) => done({ code, stdout, stderr }))
  })
}

beforeAll(async () => {
  site = await buildHostileSite({ bigPage: true })
  files = await walkFiles(site.outDir)
  htmlFiles = files.map((f) => f.path).filter((p) => p.endsWith('.html'))
}, 240_000)
afterAll(() => site?.close())

describe('hostile corpus: build() completes', () => {
  it('builds every page with no failure (CLI exit code 0)', () => {
    expect(site.result.failures).toEqual([])
    for (const path of ['/', ...HOSTILE_PAGES, '/de/%C3%BCber-uns', LEVEL_4, BIG_PAGE_PATH, '/cycle/a', '/cycle/b']) {
      expect(site.result.pages.paths, path).toContain(path)
    }
    expect(site.result.pages.byLocale).toMatchObject({ en: expect.any(Number), pl: 4, de: 4 })
  })

  it('pages with missing and wrongly typed fields are built, their problems listed', async () => {
    for (const path of [
      '/broken/null-content',
      '/broken/list-content',
      '/broken/elements',
      '/broken/numbers-as-strings',
      '/broken/deep',
      '/pl/zepsute',
    ]) {
      expect(existsSync(join(site.outDir, path.slice(1), 'index.html')), path).toBe(true)
    }
    // numbers sent as strings are read as numbers without a complaint; every other page lists its problems
    for (const path of [
      '/broken/null-content',
      '/broken/list-content',
      '/broken/elements',
      '/broken/deep',
      '/pl/zepsute',
    ]) {
      expect(
        site.result.skipped.some((s) => s.item === path),
        `problems of ${path} listed`,
      ).toBe(true)
    }
    const report = skippedText().join('\n')
    expect(report).toMatch(/\/broken\/null-content \| .*content is null/)
    expect(report).toMatch(/\/broken\/null-content \| .*meta is null/)
    expect(report).toMatch(/\/broken\/null-content \| .*i18n/)
    expect(report).toMatch(/\/broken\/list-content \| .*content\[1\]: a content element without a colPos/)
    // a flat list of elements (doNotGroupByColPos) is grouped by each one's colPos
    const listed = await readFile(join(site.outDir, 'broken/list-content/index.html'), 'utf8')
    expect(listed).toContain('Grouped by its colPos')
    expect(listed).not.toContain('No column')
    expect(report).toMatch(/\/broken\/elements \| .*colPos1: column is not a list/)
    expect(report).toMatch(/\/broken\/elements \| .*without a numeric id/)
    expect(report).toMatch(/\/broken\/elements \| .*\(id 4302, text\): content is null/)
    expect(report).toMatch(/\/broken\/elements \| .*\(id 4308, bullets\)\.bodytext: expected a list/)
    expect(report).toMatch(/\/broken\/elements \| .*\(id 4312, menu_pages\)\.menu: expected a list/)
    expect(report).toMatch(/initial data \(pl\) \| .*featuredNavigation: expected a list/)
    // the element after the broken ones, and the one with a string id, still render
    expect(await read('broken/elements/index.html')).toContain('odd envelope')
    expect(await read('broken/numbers-as-strings/index.html')).toContain('Element id "4401" is a string.')
  })

  it('unknown content types render nothing but do not stop the elements after them', async () => {
    const html = await read('broken/types/index.html')
    expect(html).toContain('Still here.')
    expect(findHtmlViolations(html)).toEqual([])
  })

  it('does not pollute Object.prototype from a literal "__proto__" key in the API data', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('hostile corpus: media (the default, optimize)', () => {
  it('SVG stays a link to the CMS, never copied; downloads are copied; unsafe file URLs are never requested', async () => {
    const media = files.map((f) => f.path).filter((path) => path.startsWith('_site/media/'))
    expect(media.some((path) => /\.svg/i.test(path))).toBe(false)
    expect(media.filter((path) => path.endsWith('/hostile.pdf'))).toHaveLength(1)
    const pages = await Promise.all(htmlFiles.map((path) => read(path)))
    const svgLinks = pages.join('\n').match(/src="[^"]*pixel\.svg[^"]*"/g) ?? []
    expect(svgLinks.length).toBeGreaterThan(0)
    for (const link of svgLinks) expect(link.startsWith(`src="${site.api.url}/fileadmin/images/pixel.svg`)).toBe(true)
    const requested = site.api.requests.map((request) => request.path)
    expect(requested.some((path) => path.includes('pixel.svg'))).toBe(false)
    expect(requested.filter((path) => path === '/fileadmin/documents/hostile.pdf')).toHaveLength(1)
  })
})

describe('hostile corpus: nothing is written outside the output folder', () => {
  it('the parent folder holds only the output folder, before and after', async () => {
    expect(site.parentBefore).toHaveLength(1)
    expect((await readdir(site.parent)).sort()).toEqual(site.parentBefore)
  })

  it('no sentinel file appears anywhere the hostile paths point to', () => {
    const places = [
      site.parent,
      dirname(site.parent),
      tmpdir(),
      PROJECT_ROOT,
      join(site.outDir, 'hostile'),
      '/',
      '/etc',
      '/tmp',
    ]
    for (const place of places) expect(existsSync(join(place, SENTINEL)), join(place, SENTINEL)).toBe(false)
    expect(files.filter((f) => f.path.includes(SENTINEL) || f.path.includes('hostile/'))).toEqual([])
  })

  it('the output holds no symlinks and no name with a control character, backslash or dot segment', () => {
    expect(files.filter((f) => f.symlink)).toEqual([])
    const bad = files.filter(
      (f) =>
        /[\u0000-\u001f\u007f\\]/.test(f.path) || f.path.split('/').some((s) => s === '..' || s === '.' || s === ''),
    )
    expect(bad).toEqual([])
  })
})

describe('hostile corpus: every hostile string is escaped', () => {
  it('control: the HTML scanner flags what a browser would run', () => {
    const page = (body: string, head = '<title>t</title>') =>
      `<!doctype html><html><head>${head}</head><body>${body}</body></html>`
    expect(
      findHtmlViolations(
        page('<p title="&lt;img src=x onerror=alert(1)&gt;">&lt;script&gt;alert(1)&lt;/script&gt;</p>'),
      ),
    ).toEqual([])
    const bad = [
      page('<img src=x onerror=alert(1)>'),
      page('<a href=" java&#x09;script:alert(1)">x</a>'),
      page('<a href="&#106;avascript:alert(1)">x</a>'),
      page('<iframe srcdoc="x"></iframe>'),
      page('<script>alert(1)</script>'),
      page('<script type="application/json">{"a":"</script><script>alert(1)</script>"}</script>'),
      page('', '<title>a</title><script>x</script><title>b</title>'),
      page('', '<title>t</title><meta http-equiv="refresh" content="0; url=javascript:alert(1)">'),
      page('<base href="https://evil.example/">'),
    ]
    expect(bad.filter((html) => findHtmlViolations(html).length === 0)).toEqual([])
  })

  it('no written HTML file has an event handler, a javascript:/data: URL, an unexpected script or a second <title>', async () => {
    expect(htmlFiles.length).toBeGreaterThan(30)
    const violations: string[] = []
    for (const path of htmlFiles) {
      const html = await read(path)
      for (const problem of findHtmlViolations(html)) violations.push(`${path}: ${problem}`)
    }
    expect(violations).toEqual([])
  })

  it('titles and meta fields stay inside their tag', async () => {
    const html = await read('xss/meta/index.html')
    const head = html.slice(0, html.indexOf('</head>'))
    expect(head.match(/<title[^>]*>/g)).toHaveLength(1)
    expect(head).toMatch(/<title[^>]*>Meta &lt;\/title&gt;&lt;script&gt;window.__xss=1&lt;\/script&gt;/)
    expect(head).toContain('content="He said &quot;hi&quot;')
    const metaAttrs = new Set(['charset', 'name', 'property', 'http-equiv', 'content', 'data-site-head'])
    const metas = tokenizeHtml(head).filter((t) => t.name === 'meta')
    expect(metas.flatMap((t) => t.attrs.map(([name]) => name)).filter((name) => !metaAttrs.has(name))).toEqual([])
    expect(metas.find((t) => t.attrs.some(([n, v]) => n === 'name' && v === 'twitter:card'))?.attrs).toContainEqual([
      'content',
      'summary" onclick="window.__xss=1',
    ])
    const seo = await read('xss/seo/index.html')
    expect(seo.slice(0, seo.indexOf('</head>')).match(/<title[^>]*>/g)).toHaveLength(1)
    const roots = tokenizeHtml(seo).filter((t) => t.name === 'html' || t.name === 'body')
    expect(
      roots.flatMap((t) => t.attrs.map(([name]) => name)).filter((name) => !['lang', 'dir', 'class'].includes(name)),
    ).toEqual([])
  })

  it('the hostile slug becomes one folder and is escaped where the page names itself', async () => {
    expect(existsSync(join(site.outDir, 'weird', HOSTILE_SLUG.slice('/weird/'.length), 'index.html'))).toBe(true)
    const html = await read(`${HOSTILE_SLUG.slice(1)}/index.html`)
    expect(findHtmlViolations(html)).toEqual([])
    expect(html).toContain('/weird/%22%3E%3Cimg%20src%3Dx%20onerror%3Dwindow.__xss%3D1%3E')
  })

  it('_redirects, sitemap.xml, payloads and initial data files carry no unsafe target and no raw markup', async () => {
    const redirects = await read('_redirects')
    for (const line of redirects.trim().split('\n')) expect(line.split(' '), line).toHaveLength(3)
    expect(redirects).not.toMatch(/javascript:|data:|vbscript:|evil\.example 200/i)
    const sitemap = await read('sitemap.xml')
    expect(sitemap).not.toMatch(/<script|<img|javascript:/i)
    for (const { path } of files.filter((f) => f.path.endsWith('_payload.json') || f.path.startsWith('_site/data/'))) {
      const payload = await read(path)
      expect(() => JSON.parse(payload), path).not.toThrow()
      expect(payload, path).not.toMatch(/"(href|link|publicUrl|src|url)":"\s*(javascript|vbscript|data):/i)
    }
  })
})

describe('hostile corpus: refused items are listed in the build report', () => {
  it('hostile paths (.., %2F, NUL, 2,000-character segment) are refused, never fetched', () => {
    const report = skippedText()
    const requested = [...pageRequests(site.api.requests).keys()]
    for (const path of HOSTILE_PATHS) {
      expect(
        report.some((line) => line.startsWith(path.slice(0, 150))),
        `${path.slice(0, 60)} listed`,
      ).toBe(true)
    }
    expect(requested.filter((p) => p.includes(SENTINEL) || p.includes('hostile/') || p.length > 1024)).toEqual([])
  })

  // a browser reads the backslash as a slash: `/\evil.example` would lead to another host than its text shows
  it('a link with a backslash before its query is removed from the page and listed where it stood', async () => {
    const report = skippedText()
    expect(report).toContainEqual(expect.stringMatching(/bodytext: unsafe link "\/hostile\/back\\slash" removed/))
    expect(report).toContainEqual(
      expect.stringMatching(/menu\[7\]\.link: unsafe link "\/hostile\/back\\\\slash" removed/),
    )
    for (const file of ['xss/links/index.html', 'xss/links/_payload.json'])
      expect(await read(file), file).not.toMatch(/hostile\/back\\+slash/)
  })

  it('unsafe redirect targets are refused and listed; nothing is written for them', () => {
    const report = skippedText()
    for (const from of REFUSED_REDIRECTS) {
      expect(
        report.some((line) => line.startsWith(`${from} -> `) && line.includes('| REDIRECT_REFUSED |')),
        from,
      ).toBe(true)
      expect(existsSync(join(site.outDir, from.slice(1))), from).toBe(false)
      expect(site.result.redirects.map((r) => r.from)).not.toContain(from)
    }
  })

  it('safe redirects are written: internal (normalised) and external https', () => {
    expect(site.result.redirects).toEqual(
      expect.arrayContaining([
        { from: '/go/internal', to: '/about-us', statusCode: 301 },
        { from: '/go/external', to: 'https://www.example.org/landing?from=hostile', statusCode: 301 },
        { from: '/de/go/umlaut', to: '/de/%C3%BCber-uns', statusCode: 307 },
        { from: '/pl/go/wewnetrzne', to: '/pl/o-nas', statusCode: 302 },
      ]),
    )
  })

  it('unsafe links in navigation, menus, header links, files and meta are listed', () => {
    const report = skippedText().join('\n')
    const expectations: Array<[string, RegExp]> = [
      [
        'main navigation javascript:',
        /initial data \(en\) \| .*navigation\[0\]\.children\[\d+\]\.link: unsafe link "javascript:window.__xss=1"/,
      ],
      [
        'main navigation data:',
        /initial data \(en\) \| .*navigation\[0\]\.children\[\d+\]\.link: unsafe link "data:text\/html/,
      ],
      [
        'footer vbscript:',
        /initial data \(en\) \| .*footerNavigation\[\d+\]\.link: unsafe link "vbscript:msgbox\(1\)"/,
      ],
      ['social javascript:', /initial data \(en\) \| .*socialMenu\[\d+\]\.link: unsafe link "javascript:/],
      ['header link javascript:', /\/xss\/links \| .*headerLink\.href: unsafe link "javascript:/],
      ['header link data:', /\/xss\/links \| .*headerLink: unsafe link "data:/],
      ['menu entry javascript:', /\/xss\/links \| .*menu\[0\]\.link: unsafe link "javascript:/],
      ['i18n javascript:', /\/xss\/links \| .*i18n\[1\]\.link: unsafe link "javascript:alert\(1\)"/],
      ['canonical javascript:', /\/xss\/meta \| .*meta\.canonical\.href: unsafe link "javascript:alert\(1\)"/],
      ['og image javascript:', /\/xss\/meta \| .*meta\.ogImage\.publicUrl: unsafe link/],
      [
        'gallery file javascript:',
        /\/xss\/content \| .*gallery\.rows\.1\.columns\.1\.publicUrl: unsafe link "javascript:alert\(1\)"/,
      ],
      ['upload data:', /\/xss\/content \| .*uploads\)\.media\[1\]\.publicUrl: unsafe link "data:/],
      ['reserved file name', /^\/sitemap\.xml \| RESERVED_PATH \| collides with a file the build writes/m],
    ]
    expect(expectations.filter(([, re]) => !re.test(report)).map(([name]) => name)).toEqual([])
  })

  it('a link shown as text (a code sample in bodytext) is not crawled', () => {
    const requested = [...pageRequests(site.api.requests).keys()]
    expect(requested.filter((p) => p === '/from-code-sample' || p === '/from-plain-text')).toEqual([])
  })

  it('unsafe links removed from rich text (bodytext) are listed too', () => {
    // Only in the bodytext of /xss/links: sanitize-html drops these hrefs; the report must say so.
    const report = skippedText()
    const missing = [
      'file:///etc/passwd',
      'C:\\Windows\\win.ini',
      'vbscript:msgbox(1)',
      'JaVaScRiPt:window.__xss=1',
    ].filter((href) => !report.some((line) => line.includes(href) && line.includes('/xss/links')))
    expect(missing).toEqual([])
  })
})

describe('hostile corpus: unicode slugs, duplicates and cycles', () => {
  it('writes /de/über-uns once, as a decoded folder name, whichever spelling the menus used', async () => {
    const names = await readdir(join(site.outDir, 'de'))
    expect(names).toContain('über-uns')
    expect(names.filter((n) => n.normalize('NFC') === 'über-uns' || /%c3%bc/i.test(n))).toEqual(['über-uns'])
    expect(site.result.pages.paths.filter((p) => decodeURIComponent(p).normalize('NFC') === '/de/über-uns')).toEqual([
      '/de/%C3%BCber-uns',
    ])
    expect(existsSync(join(site.outDir, 'de', 'größe', 'übersicht', 'index.html'))).toBe(true)
  })

  it('fetches every page once, however many menus, spellings and cycles lead to it', () => {
    const counts = pageRequests(site.api.requests)
    expect([...counts].filter(([, n]) => n > 1)).toEqual([])
    for (const path of ['/about-us', '/contact', '/de/über-uns', '/cycle/a', '/cycle/b', '/go/loop-a', '/go/loop-b'])
      expect(counts.get(path), path).toBe(1)
    const initialData = site.api.requests.filter((r) => r.query.type !== undefined)
    expect(initialData).toHaveLength(3)
  })

  it('navigation cycles and redirect loops end; both ends are built', () => {
    // The loop's two ends are redirects: a payload each (and a `_redirects` line), no page.
    for (const path of [
      'cycle/a/index.html',
      'cycle/b/index.html',
      'go/loop-a/_payload.json',
      'go/loop-b/_payload.json',
    ]) {
      expect(existsSync(join(site.outDir, path)), path).toBe(true)
    }
  })

  it('builds the 4th navigation level and links it from the header', async () => {
    expect(existsSync(join(site.outDir, LEVEL_4.slice(1), 'index.html'))).toBe(true)
    const home = await read('index.html')
    expect(home).toContain(`href="${LEVEL_4}"`)
  })
})

describe('hostile corpus: the 5 MB page', () => {
  it('is at least 5 MB as the API sends it, and is built', async () => {
    const source = await stat(join(site.contentDir, 'pages', 'en', 'big-page.json'))
    expect(source.size).toBeGreaterThanOrEqual(BIG_PAGE_MIN_BYTES)
    const html = await read('big-page/index.html')
    expect(html.length).toBeGreaterThan(BIG_PAGE_MIN_BYTES / 2)
    expect(html).toContain('Section 1000 ')
    expect(findHtmlViolations(html)).toEqual([])
  })
})

describe('hostile corpus: site build (CLI)', () => {
  it('exits 0 and prints the refused items in --json', async () => {
    const contentDir = await copyHostileSite()
    const api = await startDemoApi({ port: 0, contentDir })
    const parent = await mkdtemp(join(tmpdir(), 'site-hostile-cli-'))
    const config = await writeHostileConfig(api.url)
    try {
      const out = join(parent, 'out')
      const run = await runCli(['build', '--config', config.file, '--out', out, '--json', '--no-progress'])
      expect(run.code, run.stderr).toBe(0)
      const summary = JSON.parse(run.stdout) as { ok: boolean; skipped: Array<{ item: string; reason: string }> }
      expect(summary.ok).toBe(true)
      expect(summary.skipped.some((s) => s.item.startsWith('/go/js -> javascript:'))).toBe(true)
      expect(await readdir(parent)).toEqual(['out'])
    } finally {
      await api.close()
      await Promise.all([contentDir, parent, config.dir].map((dir) => rm(dir, { recursive: true, force: true })))
    }
  }, 180_000)
})

describe('hostile variants', () => {
  it('a link holding a lone UTF-16 surrogate is refused and listed, not a failed build', async () => {
    // JSON allows "\ud800"; encodeURIComponent throws on it (URIError: URI malformed).
    const variant = await buildHostileSite({ variants: ['loneSurrogate'] })
    try {
      expect(variant.result.failures).toEqual([])
      expect(variant.result.pages.paths).toContain(VARIANTS.loneSurrogate.path)
      expect(variant.result.skipped.some((s) => s.item.startsWith('/lone-'))).toBe(true)
    } finally {
      await variant.close()
    }
  }, 180_000)

  it('a navigation link holding a lone UTF-16 surrogate is refused and listed, not a thrown build', async () => {
    const attempt = buildHostileSite({ navLinks: ['/lone-\ud800-surrogate'] })
    await expect(attempt).resolves.toBeDefined()
    const variant = await attempt
    try {
      expect(variant.result.failures).toEqual([])
      expect(variant.result.skipped.some((s) => s.item.startsWith('/lone-'))).toBe(true)
    } finally {
      await variant.close()
    }
  }, 180_000)
})
