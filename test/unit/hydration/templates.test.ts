import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import { SiteError } from '../../../src/errors.js'
import { bundleClient } from '../../../src/hydration/bundle.js'
import { browserCodeIn, isClientTemplate, scanTemplates } from '../../../src/hydration/manifest.js'
import { loadTemplates } from '../../../src/hydration/node-registry.js'
import { templatesPlugin } from '../../../src/hydration/plugins.js'
import {
  LAZY_TEMPLATES_MODULE,
  MAIN_TEMPLATES_MODULE,
  registrySource,
  TEMPLATES_MODULE,
} from '../../../src/hydration/registry-source.js'
import { renderPage } from '../../../src/render/render-page.js'
import { makePage, makeState, tempDir as makeTempDir, ROOT } from '../render/helpers.js'

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
  'Header',
  'Text',
  'Textpic',
  'Textmedia',
  'Image',
  'Bullets',
  'Table',
  'Uploads',
  'Html',
  'Div',
  'Shortcut',
  'List',
  'MenuPages',
  'MenuSubpages',
  'MenuAbstract',
  'MenuSitemap',
  'MenuSitemapPages',
  'MenuSection',
  'MenuSectionPages',
  'MenuCategorizedPages',
  'MenuCategorizedContent',
  'MenuRecentlyUpdated',
  'MenuRelatedPages',
  'FormFormframework',
  'Default',
]

/** A minimal project whose Text template prints `label`. */
function writeProject(root: string, files: Record<string, string> = {}, label = 'v1'): void {
  const all: Record<string, string> = {
    'templates/layouts/Default.tsx': `import { ContentColumn } from 'typo3-headless-site/runtime'\nexport default function L() { return <ContentColumn colPos={0} /> }\n`,
    'templates/content/Default.tsx': 'export default function D() { return null }\n',
    'templates/content/Text.tsx': `import { useSite } from 'typo3-headless-site/runtime'\nexport default function T(props: { header?: string }) {\n  const site = useSite()\n  return <p>{\`${label} \${site.locale} \${props.header}\`}</p>\n}\n`,
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
    writeProject(root, {
      'templates/content/Broken.tsx': 'export default function B() {\n  const x = \n  return <p>{x</p>\n}\n',
    })
    const error = (await loadTemplates(root, { cacheDir: join(root, 'cache') }).catch((e: unknown) => e)) as SiteError
    expect(error.code).toBe('TEMPLATES_INVALID')
    expect(error.message).toMatch(/templates\/content\/Broken\.tsx:3:\d+/)
  })

  it('registers templates/texts/<locale> files as the registry’s texts, read with useSiteTexts (pickLocale’s fallback)', async () => {
    const root = tempDir()
    writeProject(root, {
      'templates/texts/en.ts': `export default { hello: 'Hello' }\n`,
      'templates/texts/pl.json': `{ "hello": "Cześć" }\n`,
      'templates/texts/README.md': 'not a locale\n',
      'templates/Footer.tsx': `import { useSiteTexts } from 'typo3-headless-site/runtime'\nexport default function F() { return <footer>{useSiteTexts<{ hello: string }>().hello}</footer> }\n`,
    })
    const registry = await loadTemplates(root, { cacheDir: join(root, 'cache') })
    expect(registry.texts).toEqual({ en: { hello: 'Hello' }, pl: { hello: 'Cześć' } })
    const footer = (locale: string, site = makeState().site) =>
      /<footer>(.*)<\/footer>/.exec(renderPage(makeState({ site, page: textPage(), locale }), registry).appHtml)?.[1]
    expect(footer('pl')).toBe('Cześć')
    expect(footer('pl-PL')).toBe('Cześć')
    expect(footer('de')).toBe('Hello')
    // a locale without texts reads the default locale's, also when the default has a region (pl-PL reads pl)
    const polish = { ...makeState().site, i18n: { default: 'pl-PL', locales: ['pl-PL', 'de-CH'] } }
    expect(footer('de-CH', polish)).toBe('Cześć')
  })

  it.each([
    [
      'a template without a default-exported component',
      'templates/content/Nothing.tsx',
      'export default 42\n',
      'templates/content/Nothing.tsx',
    ],
    [
      'a texts file without a default-exported object',
      'templates/texts/de.ts',
      'export default "Hallo"\n',
      'templates/texts/de.ts',
    ],
    ['an error page without a default-exported component', 'templates/ErrorPage.tsx', '\n', 'templates/ErrorPage.tsx'],
    [
      'an async template (it would fail every page that renders it with React’s words only)',
      'templates/content/Later.tsx',
      'export default async function L() { return null }\n',
      'templates/content/Later.tsx',
    ],
  ])('reports %s by its file', async (_name, file, source, named) => {
    const root = tempDir()
    writeProject(root, { [file]: source })
    const error = (await loadTemplates(root, { cacheDir: join(root, 'cache') }).catch((e: unknown) => e)) as SiteError
    expect(error.code).toBe('TEMPLATES_INVALID')
    expect(error.message).toMatch(new RegExp(`: ${named.replaceAll('.', '\\.')}$`))
  })
})

describe('the site:templates module', () => {
  it('imports every file by name', async () => {
    const source = registrySource(await scanTemplates(ROOT), TEMPLATES_MODULE)
    expect(source).toContain('"TwoColumns": T1')
    expect(source).toContain(JSON.stringify(join(ROOT, 'templates/content/Textpic.tsx')))
    expect(source).toMatch(/ErrorPage: T\d+,/)
    expect(source).toMatch(/"pl": T\d+,/)
    expect(source).not.toContain('import(')
    expect(source).not.toContain('client:')
  })

  it('bundles for the browser through templatesPlugin', async () => {
    const manifest = await scanTemplates(ROOT)
    const result = await build({
      stdin: {
        contents: "import registry from 'site:templates'\nexport default registry\n",
        resolveDir: ROOT,
        loader: 'js',
      },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      jsx: 'automatic',
      logLevel: 'silent',
      plugins: [templatesPlugin(() => manifest, { runtime: join(ROOT, 'src/runtime/index.ts') })],
    })
    const code = result.outputFiles[0]?.text ?? ''
    expect(code).toContain('pce-edit-link')
    expect(code).toContain('Amberline Software')
    expect(code).not.toMatch(/from ["']site\/runtime["']/)
  })
})

describe('the site:templates/lazy and site:templates/main modules (browser)', () => {
  it('lazy: Header and Footer as components, texts as loaders, the loader of the main module, the marked content elements', async () => {
    const source = registrySource(await scanTemplates(ROOT), LAZY_TEMPLATES_MODULE)
    expect(source).toContain(`"de": () => import(${JSON.stringify(join(ROOT, 'templates/texts/de.ts'))}),`)
    expect(source).toContain(`main: () => import("${MAIN_TEMPLATES_MODULE}"),`)
    // The demo's templates are markup only: no island loaders. Which templates are marked the server decides with, not the browser.
    expect(source).toContain('  islands: {\n  },')
    expect(source).not.toContain('client:')
    expect(source).not.toContain('keys:')
    expect(source).not.toContain('Textpic')
    const staticImports = [...source.matchAll(/^import \w+ from (".*")$/gm)].map(
      (m) => JSON.parse(m[1] as string) as string,
    )
    expect(staticImports).toEqual(['Header', 'Footer'].map((name) => join(ROOT, `templates/${name}.tsx`)))
  })

  it('main: layouts, content elements and ErrorPage as loaders', async () => {
    const source = registrySource(await scanTemplates(ROOT), MAIN_TEMPLATES_MODULE)
    expect(source).toContain(
      `"TwoColumns": () => import(${JSON.stringify(join(ROOT, 'templates/layouts/TwoColumns.tsx'))}),`,
    )
    expect(source).toContain(`"Textpic": () => import(${JSON.stringify(join(ROOT, 'templates/content/Textpic.tsx'))}),`)
    expect(source).toContain(`"Default": () => import(${JSON.stringify(join(ROOT, 'templates/content/Default.tsx'))}),`)
    expect(source).toContain(`ErrorPage: () => import(${JSON.stringify(join(ROOT, 'templates/ErrorPage.tsx'))}),`)
    expect(source).not.toMatch(/^import /m)
  })

  it('lists the layouts, content elements and error page marked use client', async () => {
    const root = tempDir()
    writeProject(root, {
      'templates/content/Form.tsx': `// A form with state.\n'use client'\nexport default function Form() { return <form /> }\n`,
      'templates/content/Quote.tsx': `export default function Quote() { return 'use client' }\n`,
      'templates/layouts/Shop.tsx': `/* shop */ "use strict"; "use client";\nexport default function Shop() { return null }\n`,
      'templates/ErrorPage.tsx': `'use client'\nexport default function E() { return <p>error</p> }\n`,
      'templates/Footer.tsx': `'use client'\nexport default function F() { return <footer /> }\n`,
    })
    const manifest = await scanTemplates(root)
    expect(manifest.client).toEqual(['layouts/Shop', 'content/Form', 'ErrorPage', 'Footer'])
    const source = registrySource(manifest, LAZY_TEMPLATES_MODULE)
    // Only the marked content elements, as loaders (what an island page loads without the main module).
    expect(source).toContain(
      `  islands: {\n    "Form": () => import(${JSON.stringify(join(root, 'templates/content/Form.tsx'))}),\n  },`,
    )
    expect(source).not.toContain('client:')
    expect(source).not.toContain('Quote')
  })

  it('hints at unmarked templates whose own source uses hooks or event handlers', async () => {
    const root = tempDir()
    writeProject(root, {
      'templates/content/Accordion.tsx': `import { useState } from 'react'\nexport default function A() { const [open, setOpen] = useState(false); return <button onClick={() => setOpen(!open)} /> }\n`,
      'templates/content/Tabs.tsx': `'use client'\nimport { useState } from 'react'\nexport default function T() { useState(0); return null }\n`,
      'templates/content/Quote.tsx': `// useState is mentioned here, but not called\nexport default function Q() { return <blockquote /> }\n`,
      'templates/Header.tsx': `export default function H() { return <button type="button" onClick={() => alert(1)} onBlur={close} /> }\n`,
      // a blur or a pointer leaving follows the first action, which loads the client: no note
      'templates/Footer.tsx': `export default function F() { return <div onBlur={close} onPointerLeave={close} /> }\n`,
      'templates/content/Panel.tsx': `export default function P() { return <div onBlur={close} /> }\n`,
    })
    const { client, hints } = await scanTemplates(root)
    expect(client).toEqual(['content/Tabs'])
    expect(hints).toEqual([
      "templates/content/Accordion.tsx uses useState, onClick but is not marked 'use client': on a first visit the browser keeps its server markup (add 'use client' as its first line)",
      // a content element keeps its server markup: its onBlur never runs on a first visit
      "templates/content/Panel.tsx uses onBlur but is not marked 'use client': on a first visit the browser keeps its server markup (add 'use client' as its first line)",
      "templates/Header.tsx uses onClick but is not marked 'use client': on a page that needs no other template code the browser runs it only from the visitor's first action (add 'use client' as its first line)",
    ])
    expect(browserCodeIn('<a onClick={go} onMouseEnter = {x}>; useEffect(() => {}); useRef (null)')).toEqual([
      'onClick',
      'onMouseEnter',
      'useEffect',
      'useRef',
    ])
  })

  it('notes a layout or content element file whose name no type or layout can reach, with the name it wants', async () => {
    const root = tempDir()
    writeProject(root, {
      'templates/content/menu_pages.tsx': 'export default function M() { return null }\n',
      'templates/content/Text.stories.tsx': 'export default {}\n',
      'templates/content/notes.md': 'not code\n',
      'templates/content/utils.ts': 'export const a = 1\n',
      'templates/layouts/two-columns.tsx': 'export default function L() { return null }\n',
      'templates/layouts/2columns.tsx': 'export default function L() { return null }\n',
      'templates/content/text_media.tsx': 'export default function T() { return null }\n',
      'templates/content/TextMedia.tsx': 'export default function T() { return null }\n',
      // renamed TextMedia.jsx, it would be the template of that name in TextMedia.tsx's place (sorted first)
      'templates/layouts/two_columns.jsx': 'export default function L() { return null }\n',
      'templates/layouts/TwoColumns.tsx': 'export default function L() { return null }\n',
    })
    const { content, hints } = await scanTemplates(root)
    expect(content.map((c) => c.name)).not.toContain('menu_pages')
    expect(hints).toEqual([
      'templates/content/menu_pages.tsx is not used: a template file is named in PascalCase (rename it MenuPages.tsx)',
      'templates/content/text_media.tsx is not used: TextMedia.tsx beside it is the template of that name',
      'templates/layouts/2columns.tsx is not used: a template file is named in PascalCase, beginning with a capital letter',
      'templates/layouts/two-columns.tsx is not used: TwoColumns.tsx beside it is the template of that name',
      'templates/layouts/two_columns.jsx is not used: TwoColumns.tsx beside it is the template of that name',
    ])
  })

  it.each([
    ["'use client'\nexport default 1", true],
    ['\ufeff"use client";', true],
    ["// comment\n/* block\n */\n'use strict'\n'use client'", true],
    ["import x from 'y'\n'use client'", false],
    ["const a = 'use client'", false],
    ["'use clientele'", false],
    ['', false],
  ])('isClientTemplate(%j) is %s', (source, expected) => {
    expect(isClientTemplate(source)).toBe(expected)
  })

  it('names missing required files when it reads the templates', async () => {
    const root = tempDir()
    writeProject(root)
    rmSync(join(root, 'templates/content/Default.tsx'))
    const error = (await scanTemplates(root).catch((e: unknown) => e)) as SiteError
    expect(error.code).toBe('TEMPLATES_INVALID')
    expect(error.message).toContain('templates/content/Default.tsx')
  })

  it('bundles with code splitting into one chunk per template, none of them in the entry', async () => {
    const manifest = await scanTemplates(ROOT)
    const result = await build({
      stdin: {
        contents: `import templates from '${LAZY_TEMPLATES_MODULE}'\nexport default templates\n`,
        resolveDir: ROOT,
        loader: 'js',
      },
      bundle: true,
      write: false,
      metafile: true,
      splitting: true,
      outdir: join(ROOT, '.site', 'test-lazy-templates'),
      format: 'esm',
      platform: 'browser',
      jsx: 'automatic',
      logLevel: 'silent',
      plugins: [templatesPlugin(() => manifest, { runtime: join(ROOT, 'src/runtime/index.ts') })],
    })
    const outputs = Object.values(result.metafile.outputs)
    const entry = outputs.find((output) => output.entryPoint === '<stdin>')
    const chunkOf = (file: string) => outputs.find((output) => output.entryPoint === file)
    for (const file of [
      'templates/layouts/Default.tsx',
      'templates/layouts/TwoColumns.tsx',
      'templates/content/Table.tsx',
      'templates/content/Text.tsx',
    ]) {
      expect(chunkOf(file), file).toBeDefined()
      expect(Object.keys(entry?.inputs ?? {})).not.toContain(file)
    }
    expect(chunkOf('templates/ErrorPage.tsx')).toBeDefined()
    expect(chunkOf('templates/texts/pl.ts')).toBeDefined()
    expect(Object.keys(entry?.inputs ?? {})).toEqual(
      expect.arrayContaining(['templates/Header.tsx', 'templates/Footer.tsx']),
    )
    expect(Object.keys(entry?.inputs ?? {})).not.toContain('templates/ErrorPage.tsx')
    const entryCode = result.outputFiles.find((file) => file.path.endsWith('stdin.js'))?.text ?? ''
    expect(entryCode).toContain('skip-link')
    expect(entryCode).not.toContain('ce-table')
  })
})

describe('a template that imports an image', () => {
  // esbuild said only `No loader is configured for ".svg" files`: nothing told the author where such a file goes.
  it('says to put the file in public/ and use its URL', async () => {
    const root = tempDir()
    writeProject(root, {
      'templates/content/Logo.tsx': `import logo from './logo.svg'\nexport default function L() { return <img src={logo} alt="" /> }\n`,
      'templates/content/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
    })
    const error = (await loadTemplates(root, { cacheDir: join(root, 'cache') }).catch((e: unknown) => e)) as SiteError
    expect(error.code).toBe('TEMPLATES_INVALID')
    expect(error.message).toContain(
      'templates/content/Logo.tsx:1:18: No loader is configured for ".svg" files: templates/content/logo.svg (templates import code, .css and .json: put the file in public/ and use its URL, /logo.svg for public/logo.svg)',
    )
  })
})

describe('bundleClient with a template that imports what only runs in Node', () => {
  // esbuild only said `Could not resolve "node:fs"`, and for a package that needs Node, named files under
  // node_modules/ alone: the developer could not tell which of their templates pulled it into the browser.
  it('says it is a Node built-in and names the template that imports the package needing it', async () => {
    const root = tempDir()
    writeProject(root, {
      'templates/content/Clock.tsx': `import { hostname } from 'node:os'\nexport default function C() { return <p>{hostname()}</p> }\n`,
      'templates/content/Widget.tsx': `import { size } from 'server-thing'\nexport default function W() { return <p>{size()}</p> }\n`,
      'node_modules/server-thing/package.json': '{ "name": "server-thing", "type": "module", "main": "index.js" }\n',
      'node_modules/server-thing/index.js': `export { size } from 'server-helper'\n`,
      'node_modules/server-helper/package.json': '{ "name": "server-helper", "type": "module", "main": "index.js" }\n',
      'node_modules/server-helper/index.js': `import { statSync } from 'fs'\nexport const size = () => statSync('.').size\n`,
    })
    const error = (await bundleClient({ root, cache: false }).catch((e: unknown) => e)) as SiteError
    expect(error.code).toBe('TEMPLATES_INVALID')
    expect(error.message).toContain(
      'templates/content/Clock.tsx:1:26: Could not resolve "node:os" (a Node built-in module: templates run in the browser too)',
    )
    expect(error.message).toContain(
      'node_modules/server-helper/index.js:1:26: Could not resolve "fs" (a Node built-in module: templates run in the browser too; "server-thing" is imported by templates/content/Widget.tsx)',
    )
  })
})
