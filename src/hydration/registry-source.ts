/**
 * The generated registry modules, from a template manifest (pure: no I/O):
 * - `site:templates`: every layout, content element, texts file and single template
 *   imported as it is (the Node registry the server renders with);
 * - `site:templates/lazy` (the browser entry): Header and Footer as they are, each locale's
 *   texts as a loader (`() => import(file)`), a loader of `site:templates/main`, and the content
 *   elements marked `'use client'` as loaders (what an island page loads without the main module);
 * - `site:templates/main`: every layout, content element and ErrorPage as a loader.
 * esbuild gives each loaded file its own chunk, so a page downloads only what it hydrates with.
 */
import { TEMPLATE_LAYOUT, type TemplateFile, type TemplateManifest } from './manifest.js'

/** The virtual module that default-exports the registry. */
export const TEMPLATES_MODULE = 'site:templates'
/** The browser entry's variant (see above). */
export const LAZY_TEMPLATES_MODULE = 'site:templates/lazy'
/** Layouts, content elements and ErrorPage as loaders: what only a render of a main needs. */
export const MAIN_TEMPLATES_MODULE = 'site:templates/main'

export type TemplatesModule = typeof TEMPLATES_MODULE | typeof LAZY_TEMPLATES_MODULE | typeof MAIN_TEMPLATES_MODULE

export const isTemplatesModule = (path: string): path is TemplatesModule =>
  path === TEMPLATES_MODULE || path === LAZY_TEMPLATES_MODULE || path === MAIN_TEMPLATES_MODULE

/** Source of a `site:templates…` module. */
export function registrySource(manifest: TemplateManifest, module: TemplatesModule = TEMPLATES_MODULE): string {
  const imports: string[] = []
  const value = (file: string, lazy: boolean) => {
    if (lazy) return `() => import(${JSON.stringify(file)})`
    imports.push(`import T${imports.length} from ${JSON.stringify(file)}`)
    return `T${imports.length - 1}`
  }
  const map = (name: string, list: readonly TemplateFile[], lazy: boolean) => [
    `  ${name}: {`,
    ...list.map((c) => `    ${JSON.stringify(c.name)}: ${value(c.file, lazy)},`),
    '  },',
  ]
  const single = (name: keyof TemplateManifest['singles'], lazy: boolean) =>
    `  ${name}: ${value(manifest.singles[name], lazy)},`
  let body: string[]
  if (module === LAZY_TEMPLATES_MODULE) {
    // Which templates are marked the server knows (the manifest) and decides with (the boot's
    // `hydration`): the browser needs only the loaders of the marked content elements.
    const islands = manifest.content.filter((c) => manifest.client.includes(`content/${c.name}`))
    body = [
      single('Header', false),
      single('Footer', false),
      ...map('texts', manifest.texts, true),
      `  main: () => import(${JSON.stringify(MAIN_TEMPLATES_MODULE)}),`,
      ...map('islands', islands, true),
    ]
  } else if (module === MAIN_TEMPLATES_MODULE) {
    body = [
      ...map('layouts', manifest.layouts, true),
      ...map('content', manifest.content, true),
      single('ErrorPage', true),
    ]
  } else {
    body = [
      ...map('layouts', manifest.layouts, false),
      ...map('content', manifest.content, false),
      ...map('texts', manifest.texts, false),
      ...TEMPLATE_LAYOUT.singles.map((name) => single(name, false)),
    ]
  }
  return [
    `// ${module}, generated from templates/ by src/hydration/registry-source.ts: one entry per file.`,
    ...imports,
    'export default {',
    ...body,
    '}',
    '',
  ].join('\n')
}
