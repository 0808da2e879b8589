/**
 * docs/templates.md's backend layout example is what a developer copies, so
 * it must work with the shipped templates and styles. The example is taken from the doc as it
 * is, saved into a copy of the project's templates, and a demo page using that layout is built
 * with the real CLI (`site build`) and opened in Chromium: breadcrumbs, the page title, the grid
 * classes styles.css defines, and columns that line up with the header.
 */
import { spawn } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { type RunningServer, startStaticServer } from '../../src/serve/server.js'
import { hasChromium, launchBrowser, openPage, waitForHydration } from './helpers/browser.js'
import { REPO_ROOT } from './helpers/site.js'

interface LayoutExample {
  /** The backend layout name the doc gives (`landing`). */
  name: string
  /** Where the doc says to save it (`templates/layouts/Landing.tsx`). */
  file: string
  source: string
}

const EXAMPLE_RE =
  /backend layout `([a-z_]+)`[^\n]*create `(templates\/layouts\/[A-Za-z]+\.tsx)`:\s*```tsx\n([\s\S]*?)```/

function layoutExample(markdown: string): LayoutExample {
  const section = markdown.slice(markdown.indexOf('## Add a backend layout'))
  const match = EXAMPLE_RE.exec(section)
  if (!match) throw new Error('docs/templates.md: no layout example under "## Add a backend layout"')
  return { name: match[1] as string, file: match[2] as string, source: match[3] as string }
}

/** Class names of the example's `className="..."` attributes. */
const classNamesOf = (source: string): string[] =>
  [...source.matchAll(/className="([^"]+)"/g)].flatMap((m) => (m[1] as string).split(/\s+/))

const runCli = (args: string[], cwd: string): Promise<{ code: number | null; output: string }> =>
  new Promise((done) => {
    const child = spawn(process.execPath, [join(REPO_ROOT, 'bin/site.js'), ...args], { cwd })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('close', (code) => done({ code, output }))
  })

/** The demo's /services page on the example's layout: the intro in colPos1, the cards in colPos0, the last text aside. */
async function contentWithLayout(dir: string, name: string): Promise<{ title: string }> {
  await cp(join(REPO_ROOT, 'demo/content'), dir, { recursive: true })
  const file = join(dir, 'pages/en/services.json')
  const page = JSON.parse(await readFile(file, 'utf8'))
  const [intro, cards, aside] = page.content.colPos0
  // No content h1: the layout's PageTitle gives the page its h1. The intro has no frame: the doc says
  // such an element lines up too.
  intro.content.headerLayout = 2
  intro.appearance.frameClass = 'none'
  page.appearance.backendLayout = name
  page.content = {
    colPos1: [{ ...intro, colPos: 1 }],
    colPos0: [cards],
    colPos2: [{ ...aside, colPos: 2 }],
  }
  await writeFile(file, JSON.stringify(page))
  return { title: page.meta.title }
}

describe.skipIf(!hasChromium)('the backend layout example of docs/templates.md', () => {
  let root: string
  let api: DemoApi
  let server: RunningServer
  let browser: Browser
  let example: LayoutExample
  let title: string

  beforeAll(async () => {
    example = layoutExample(await readFile(join(REPO_ROOT, 'docs/templates.md'), 'utf8'))
    // Inside the repository, so that the copy resolves `typo3-headless-site/runtime` like the real project.
    await mkdir(join(REPO_ROOT, '.site'), { recursive: true })
    root = await mkdtemp(join(REPO_ROOT, '.site', 'docs-layout-'))
    for (const dir of ['templates', 'config', 'public'])
      await cp(join(REPO_ROOT, dir), join(root, dir), { recursive: true })
    await writeFile(join(root, example.file), example.source)
    ;({ title } = await contentWithLayout(join(root, 'content'), example.name))
    ;[api, browser] = await Promise.all([startDemoApi({ port: 0, contentDir: join(root, 'content') }), launchBrowser()])
    const built = await runCli(['build', '--api', api.url, '--out', join(root, 'out'), '--no-progress'], root)
    if (built.code !== 0) throw new Error(`site build failed (${built.code}):\n${built.output}`)
    server = await startStaticServer({ dir: join(root, 'out'), host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await api?.close()
    if (root) await rm(root, { recursive: true, force: true })
  })

  it('uses only classes that styles.css defines (besides its own layout--<name>)', async () => {
    const css = await readFile(join(REPO_ROOT, 'templates/styles.css'), 'utf8')
    const classes = classNamesOf(example.source).filter((c) => c !== `layout--${example.name}`)
    expect(classes).toEqual(expect.arrayContaining(['layout', 'container', 'layout__grid', 'layout__main']))
    for (const name of classes) expect(css, name).toMatch(new RegExp(`\\.${name}(?![\\w-])`))
  })

  it('renders breadcrumbs, the page title and the two-column grid, lined up with the header', async () => {
    const { context, page, problems } = await openPage(browser)
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`${server.url}/services`)
    await waitForHydration(page)
    const layout = await page.evaluate((name) => {
      const root = document.querySelector(`main > .layout--${name}`)
      const left = (selector: string) => {
        const el = document.querySelector(selector)
        if (!el) return null
        const style = getComputedStyle(el)
        return Math.round(el.getBoundingClientRect().left + Number.parseFloat(style.paddingLeft))
      }
      const grid = document.querySelector(`.layout--${name} > .layout__grid`)
      return {
        found: root !== null,
        crumbs: [...document.querySelectorAll(`.layout--${name} > nav.breadcrumbs a`)].map((a) =>
          a.getAttribute('href'),
        ),
        h1: [...document.querySelectorAll('h1')].map((h) => ({
          text: h.textContent,
          hidden: h.matches('.visually-hidden'),
        })),
        columns: grid ? getComputedStyle(grid).gridTemplateColumns.split(' ').length : 0,
        aside: document.querySelector(`.layout__grid > aside.layout__aside`) !== null,
        edges: {
          logo: left('.site-logo'),
          breadcrumbs: left('.breadcrumbs ol'),
          intro: left(`.layout--${name} > * .ce-header, .layout--${name} > .ce .ce-header`),
          main: left('.layout__main .ce-header'),
        },
      }
    }, example.name)
    expect(layout.found).toBe(true)
    expect(layout.crumbs).toEqual(['/'])
    expect(layout.h1).toEqual([{ text: title, hidden: true }])
    expect(layout.columns).toBe(2)
    expect(layout.aside).toBe(true)
    const { logo, ...others } = layout.edges
    expect(logo).not.toBeNull()
    for (const [name, edge] of Object.entries(others)) expect(edge, `${name} lines up with the logo`).toBe(logo)
    expect(problems.errors).toEqual([])
    await context.close()
  })
})
