import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import { SiteError } from '../../../src/errors.js'
import { renderPage } from '../../../src/render/render-page.js'
import { generateRegistrySource, LAZY_TEMPLATES_MODULE, loadTemplates, templatesPlugin } from '../../../src/render/templates.js'
import { makePage, makeState, ROOT, tempDir as makeTempDir } from './helpers.js'

const created: string[] = []
const tempDir = (): string => {
  const dir = makeTempDir()
  created.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of created) rmSync(dir, { recursive: true, force: true })
})

const STANDARD_TYPES = [
  'Header', 'Text', 'Textpic', 'Textmedia', 'Image', 'Bullets', 'Table', 'Uploads', 'Html', 'Div', 'Shortcut', 'List',
  'MenuPages', 'MenuSubpages', 'MenuAbstract', 'MenuSitemap', 'MenuSitemapPages', 'MenuSection', 'MenuSectionPages',
  'MenuCategorizedPages', 'MenuCategorizedContent', 'MenuRecentlyUpdated', 'MenuRelatedPages', 'FormFormframework', 'Default',
]

/** A minimal project whose Text template prints `label`. */
function writeProject(root: string, files: Record<string, string> = {}, label = 'v1'): void {
  const all: Record<string, string> = {
    'templates/layouts/Default.tsx': `import { ContentColumn } from 'site/runtime'\nexport default function L() { return <ContentColumn colPos={0} /> }\n`,
    'templates/content/Default.tsx': 'export default function D() { return null }\n',
    'templates/content/Text.tsx': `import { useSite } from 'site/runtime'\nexport default function T(props: { header?: string }) {\n  const site = useSite()\n  return <p>{\`${label} \${site.locale} \${props.header}\`}</p>\n}\n`,
    'templates/Header.tsx': 'export default function H() { return <header>head</header> }\n',
    'templates/Footer.tsx': 'export default function F() { return <footer>foot</footer> }\n',
    'templates/ErrorPage.tsx': 'export default function E() { return <p>error</p> }\n',
    ...files,
  }
  for (const [file, text] of Object.entries(all)) {
    mkdirSync(join(root, file, '..'), { recursive: true })
    writeFileSync(join(root, file), text)
  }
}

const textPage = () => makePage([{ id: 1, type: 'text', content: { header: 'Hi' } }])

describe('loadTemplates', () => {
  it('registers every layout and content file of the project under its file name', async () => {
    const registry = await loadTemplates(ROOT, { cacheDir: tempDir() })
    expect(Object.keys(registry.layouts).sort()).toEqual(['Default', 'TwoColumns'])
    expect(Object.keys(registry.content)).toEqual(expect.arrayContaining(STANDARD_TYPES))
    for (const name of ['Header', 'Footer', 'ErrorPage'] as const) expect(typeof registry[name]).toBe('function')
  })

  it('shares React and the runtime context with the engine', async () => {
    const root = tempDir()
    writeProject(root)
    const registry = await loadTemplates(root, { cacheDir: join(root, 'cache') })
    const result = renderPage(makeState({ page: textPage(), locale: 'pl' }), registry)
    expect(result.appHtml).toContain('<p>v1 pl Hi</p>')
    expect(result.appHtml).toContain('<header>head</header>')
  })

  it('loads changed templates again in the same process (a new file per content)', async () => {
    const root = tempDir()
    const cacheDir = join(root, 'cache')
    writeProject(root)
    const first = await loadTemplates(root, { cacheDir })
    writeProject(root, {}, 'v2')
    const second = await loadTemplates(root, { cacheDir })
    expect(renderPage(makeState({ page: textPage() }), first).appHtml).toContain('v1 en Hi')
    expect(renderPage(makeState({ page: textPage() }), second).appHtml).toContain('v2 en Hi')
  })

  it('names the missing required files', async () => {
    const root = tempDir()
    writeProject(root)
    writeFileSync(join(root, 'templates/layouts/Other.tsx'), 'export default () => null\n')
    rmSync(join(root, 'templates/layouts/Default.tsx'))
    rmSync(join(root, 'templates/Footer.tsx'))
    const error = await loadTemplates(root, { cacheDir: join(root, 'cache') }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SiteError)
    expect((error as SiteError).code).toBe('TEMPLATES_INVALID')
    expect((error as SiteError).message).toContain('templates/layouts/Default.tsx')
    expect((error as SiteError).message).toContain('templates/Footer.tsx')
  })

  it('reports a syntax error with file and line', async () => {
    const root = tempDir()
    writeProject(root, { 'templates/content/Broken.tsx': 'export default function B() {\n  const x = \n  return <p>{x</p>\n}\n' })
    const error = (await loadTemplates(root, { cacheDir: join(root, 'cache') }).catch((e: unknown) => e)) as SiteError
    expect(error.code).toBe('TEMPLATES_INVALID')
    expect(error.message).toMatch(/templates\/content\/Broken\.tsx:3:\d+/)
  })

  it('reports a template without a default-exported component', async () => {
    const root = tempDir()
    writeProject(root, { 'templates/content/Nothing.tsx': 'export default 42\n' })
    const error = (await loadTemplates(root, { cacheDir: join(root, 'cache') }).catch((e: unknown) => e)) as SiteError
    expect(error.code).toBe('TEMPLATES_INVALID')
    expect(error.message).toContain('templates/content/Nothing')
  })
})

describe('the site:templates module', () => {
  it('imports every file by name', async () => {
    const source = await generateRegistrySource(ROOT)
    expect(source).toContain('"TwoColumns": L1')
    expect(source).toContain(JSON.stringify(join(ROOT, 'templates/content/Textpic.tsx')))
    expect(source).toMatch(/ErrorPage: S2/)
  })

  it('bundles for the browser through templatesPlugin', async () => {
    const result = await build({
      stdin: { contents: "import registry from 'site:templates'\nexport default registry\n", resolveDir: ROOT, loader: 'js' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      jsx: 'automatic',
      logLevel: 'silent',
      plugins: [templatesPlugin(ROOT, { runtime: join(ROOT, 'src/runtime/index.ts') })],
    })
    const code = result.outputFiles[0]?.text ?? ''
    expect(code).toContain('pce-edit-link')
    expect(code).toContain('Amberline Software')
    expect(code).not.toMatch(/from ["']site\/runtime["']/)
  })
})

describe('the site:templates/lazy module (browser)', () => {
  it('gives layouts and content elements as loaders, Header, Footer and ErrorPage as components', async () => {
    const source = await generateRegistrySource(ROOT, { lazy: true })
    expect(source).toContain(`"TwoColumns": () => import(${JSON.stringify(join(ROOT, 'templates/layouts/TwoColumns.tsx'))}),`)
    expect(source).toContain(`"Textpic": () => import(${JSON.stringify(join(ROOT, 'templates/content/Textpic.tsx'))}),`)
    expect(source).toContain(`"Default": () => import(${JSON.stringify(join(ROOT, 'templates/content/Default.tsx'))}),`)
    expect(source).toMatch(/ErrorPage: S2/)
    const staticImports = [...source.matchAll(/^import \w+ from (".*")$/gm)].map((m) => JSON.parse(m[1] as string) as string)
    expect(staticImports).toEqual(['Header', 'Footer', 'ErrorPage'].map((name) => join(ROOT, `templates/${name}.tsx`)))
  })

  it('still names missing required files', async () => {
    const root = tempDir()
    writeProject(root)
    rmSync(join(root, 'templates/content/Default.tsx'))
    const error = (await generateRegistrySource(root, { lazy: true }).catch((e: unknown) => e)) as SiteError
    expect(error.code).toBe('TEMPLATES_INVALID')
    expect(error.message).toContain('templates/content/Default.tsx')
  })

  it('bundles with code splitting into one chunk per template, none of them in the entry', async () => {
    const result = await build({
      stdin: { contents: `import templates from '${LAZY_TEMPLATES_MODULE}'\nexport default templates\n`, resolveDir: ROOT, loader: 'js' },
      bundle: true,
      write: false,
      metafile: true,
      splitting: true,
      outdir: join(ROOT, '.site', 'test-lazy-templates'),
      format: 'esm',
      platform: 'browser',
      jsx: 'automatic',
      logLevel: 'silent',
      plugins: [templatesPlugin(ROOT, { runtime: join(ROOT, 'src/runtime/index.ts') })],
    })
    const outputs = Object.values(result.metafile.outputs)
    const entry = outputs.find((output) => output.entryPoint === '<stdin>')
    const chunkOf = (file: string) => outputs.find((output) => output.entryPoint === file)
    for (const file of ['templates/layouts/Default.tsx', 'templates/layouts/TwoColumns.tsx', 'templates/content/Table.tsx', 'templates/content/Text.tsx']) {
      expect(chunkOf(file), file).toBeDefined()
      expect(Object.keys(entry?.inputs ?? {})).not.toContain(file)
    }
    expect(Object.keys(entry?.inputs ?? {})).toEqual(expect.arrayContaining(['templates/Header.tsx', 'templates/Footer.tsx', 'templates/ErrorPage.tsx']))
    const entryCode = result.outputFiles.find((file) => file.path.endsWith('stdin.js'))?.text ?? ''
    expect(entryCode).toContain('skip-link')
    expect(entryCode).not.toContain('ce-table')
  })
})
