import type { ComponentType } from 'react'
import { describe, expect, it } from 'vitest'
import { createTemplateLoader, type LazyTemplates, type MainTemplates } from '../../../src/client/templates.js'
import { resolveContent, resolveLayout } from '../../../src/runtime/names.js'
import type { ContentElementProps, LayoutProps, TemplateRegistry } from '../../../src/shared/contract.js'
import { at, element, page } from '../hydration/states.js'

/** A named component per template (texts: `{ locale }`), and a log of the loaders called. */
function fakeTemplates(options: { fail?: Set<string>; client?: string[] } = {}) {
  const calls: string[] = []
  const component = (name: string) => Object.assign(() => null, { displayName: name })
  const loader =
    <T>(id: string, value: T) =>
    async () => {
      calls.push(id)
      if (options.fail?.has(id))
        throw new TypeError(`Failed to fetch dynamically imported module: /_site/assets/${id}.js`)
      return { default: value }
    }
  const loaders = <P>(kind: string, names: string[]) =>
    Object.fromEntries(
      names.map((name) => [name, loader(`${kind}/${name}`, component(`${kind}/${name}`) as ComponentType<P>)]),
    )
  const main: MainTemplates = {
    layouts: loaders<LayoutProps>('layouts', ['Default', 'TwoColumns']),
    content: loaders<ContentElementProps>('content', ['Default', 'Text', 'Shortcut', 'Image', 'MenuPages']),
    ErrorPage: loader('ErrorPage', component('ErrorPage') as TemplateRegistry['ErrorPage']),
  }
  const templates: LazyTemplates = {
    Header: component('Header') as TemplateRegistry['Header'],
    Footer: component('Footer') as TemplateRegistry['Footer'],
    texts: Object.fromEntries(['en', 'de', 'pl'].map((locale) => [locale, loader(`texts/${locale}`, { locale })])),
    main: loader('main', main),
    // As the generated module: the marked content elements, loaded straight from their chunks.
    islands: Object.fromEntries(
      Object.entries(main.content).filter(([name]) => options.client?.includes(`content/${name}`)),
    ),
  }
  return { templates, calls }
}

const names = (map: object): string[] => Object.keys(map).sort()

describe('createTemplateLoader', () => {
  it('loads exactly the templates a page renders with, in parallel, and gives a plain registry', async () => {
    const { templates, calls } = fakeTemplates()
    const loader = createTemplateLoader(templates)
    const registry = await loader.load(
      at(
        page(
          { colPos0: [element(1, 'text'), element(2, 'shortcut', { shortcut: [element(3, 'image')] })] },
          'two_columns',
        ),
      ),
    )
    expect(calls.sort()).toEqual([
      'content/Image',
      'content/Shortcut',
      'content/Text',
      'layouts/TwoColumns',
      'main',
      'texts/en',
    ])
    expect(names(registry.layouts)).toEqual(['TwoColumns'])
    expect(names(registry.content)).toEqual(['Image', 'Shortcut', 'Text'])
    expect(registry.Header).toBe(templates.Header)
    expect(resolveContent(registry, 'text')).toBe(registry.content.Text)
    expect(resolveLayout(registry, 'two_columns')).toBe(registry.layouts.TwoColumns)
  })

  it('loads Default for types and layouts without a template, as the runtime falls back to it', async () => {
    const { templates, calls } = fakeTemplates()
    const registry = await createTemplateLoader(templates).load(
      at(page({ colPos0: [element(1, 'custom_widget'), element(2, 'constructor')] }, 'landing')),
    )
    expect(calls.sort()).toEqual(['content/Default', 'layouts/Default', 'main', 'texts/en'])
    expect(resolveContent(registry, 'custom_widget')).toBe(registry.content.Default)
    expect(resolveContent(registry, 'constructor')).toBe(registry.content.Default)
    expect(resolveLayout(registry, 'landing')).toBe(registry.layouts.Default)
  })

  it('loads ErrorPage for an error page without page data (Header and Footer are part of the entry)', async () => {
    const { templates, calls } = fakeTemplates()
    const registry = await createTemplateLoader(templates).load(at(null, 'pl'))
    expect(calls.sort()).toEqual(['ErrorPage', 'main', 'texts/pl'])
    expect((registry.ErrorPage as { displayName?: string }).displayName).toBe('ErrorPage')
    expect(registry.Header).toBe(templates.Header)
  })

  it('loads only the texts of the locale, with pickLocale’s fallback, and keeps each locale loaded', async () => {
    const { templates, calls } = fakeTemplates()
    const loader = createTemplateLoader(templates)
    expect((await loader.load(at(page({}), 'de-CH'), { main: false })).texts).toEqual({ de: { locale: 'de' } })
    expect(calls).toEqual(['texts/de'])
    // A locale without texts reads the default locale's.
    const registry = await loader.load(at(page({}), 'fr'), { main: false })
    expect(calls).toEqual(['texts/de', 'texts/en'])
    expect(registry.texts).toEqual({ de: { locale: 'de' }, en: { locale: 'en' } })
  })

  it('with main: false loads the texts only, not even the loaders of the main’s templates (a page whose main keeps the server’s markup)', async () => {
    const { templates, calls } = fakeTemplates()
    const registry = await createTemplateLoader(templates).load(
      at(page({ colPos0: [element(1, 'text')] }, 'two_columns'), 'pl'),
      { main: false },
    )
    expect(calls).toEqual(['texts/pl'])
    expect(names(registry.layouts)).toEqual([])
    expect(names(registry.content)).toEqual([])
  })

  it('with islands loads the texts and those content elements only, without the loaders of the main; a later render of the main reuses them', async () => {
    const { templates, calls } = fakeTemplates({ client: ['content/Text'] })
    const loader = createTemplateLoader(templates)
    const state = at(page({ colPos0: [element(1, 'text'), element(2, 'image')] }), 'en')
    const registry = await loader.load(state, { main: false, islands: ['Text'] })
    expect(calls).toEqual(['texts/en', 'content/Text'])
    expect(names(registry.content)).toEqual(['Text'])
    expect(names(registry.layouts)).toEqual([])
    const full = await loader.load(state)
    expect(calls).toEqual(['texts/en', 'content/Text', 'main', 'layouts/Default', 'content/Image'])
    expect(names(full.content)).toEqual(['Image', 'Text'])
  })

  it('loads each template once and keeps what it loaded for later pages; the registry changes only when it grows', async () => {
    const { templates, calls } = fakeTemplates()
    const loader = createTemplateLoader(templates)
    const home = at(page({ colPos0: [element(1, 'text')] }))
    const [first, again] = await Promise.all([loader.load(home), loader.load(home)])
    expect(calls).toEqual(['texts/en', 'main', 'layouts/Default', 'content/Text'])
    expect(again).toBe(first)
    expect(await loader.load(home)).toBe(first)
    const next = await loader.load(at(page({ colPos0: [element(2, 'image')] })))
    expect(calls).toEqual(['texts/en', 'main', 'layouts/Default', 'content/Text', 'content/Image'])
    expect(names(next.content)).toEqual(['Image', 'Text'])
    expect(loader.registry).toBe(next)
  })

  it('rejects with the chunk load error when a chunk fails, and asks for that chunk again next time', async () => {
    const fail = new Set(['content/Image'])
    const { templates, calls } = fakeTemplates({ fail })
    const loader = createTemplateLoader(templates)
    const withImage = at(page({ colPos0: [element(1, 'image'), element(2, 'text')] }))
    await expect(loader.load(withImage)).rejects.toThrow(/Failed to fetch dynamically imported module/)
    expect(names(loader.registry.content)).toEqual([])
    fail.clear()
    const registry = await loader.load(withImage)
    expect(calls.filter((call) => call === 'content/Image')).toHaveLength(2)
    expect(calls.filter((call) => call === 'content/Text')).toHaveLength(1)
    expect(names(registry.content)).toEqual(['Image', 'Text'])
  })
})
