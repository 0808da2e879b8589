import type { ComponentType } from 'react'
import { describe, expect, it } from 'vitest'
import { createTemplateLoader, type LazyTemplates, type MainTemplates } from '../../../src/client/templates.js'
import { resolveContent, resolveLayout } from '../../../src/runtime/names.js'
import {
  bootHydration,
  keepsMain,
  mainHydration,
  pageTemplates,
  type TemplateState,
  templateNeeds,
} from '../../../src/runtime/page-templates.js'
import type { ContentElementProps, LayoutProps, TemplateRegistry } from '../../../src/shared/contract.js'
import type { PageData } from '../../../src/shared/types.js'

const element = (id: number, type: string, content: Record<string, unknown> = {}) => ({ id, type, content })

const page = (content: unknown, backendLayout?: unknown): PageData =>
  ({
    id: 1,
    title: 'P',
    slug: '/p',
    meta: {},
    appearance: backendLayout === undefined ? {} : { backendLayout },
    content,
  }) as unknown as PageData

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

/** A render state of `page` in `locale` (default locale `en`). */
const at = (target: PageData | null, locale = 'en', editorPreview = false): TemplateState => ({
  page: target,
  locale,
  editorPreview,
  site: { i18n: { default: 'en' } },
})

const names = (map: object): string[] => Object.keys(map).sort()

describe('pageTemplates', () => {
  it('names the layout and every content type of every column, nested elements (shortcut) included', () => {
    const shortcut = element(3, 'shortcut', {
      shortcut: [element(4, 'image'), element(5, 'menu_pages', { items: [element(6, 'text')] })],
    })
    const needs = pageTemplates(
      page({ colPos0: [element(1, 'text'), shortcut], colPos1: [element(2, 'text')] }, 'two_columns'),
    )
    expect(needs).toEqual({ layouts: ['TwoColumns'], content: ['Image', 'MenuPages', 'Shortcut', 'Text'] })
  })

  it('asks for the Default layout when none is named, and none at all without a page (an error page)', () => {
    expect(pageTemplates(page({}, ''))).toEqual({ layouts: ['Default'], content: [] })
    expect(pageTemplates(page({}))).toEqual({ layouts: ['Default'], content: [] })
    expect(pageTemplates(null)).toEqual({ layouts: [], content: [] })
  })

  it('counts only what passes the envelope check, and survives any data shape', () => {
    const files = { publicUrl: '/a.pdf', properties: { type: 'application' } }
    const content = {
      colPos0: [
        element(1, 'text', { media: [files] }),
        { id: 'x', type: 'html', content: {} },
        { id: 2, type: 'div' },
        null,
        'text',
        7,
      ],
      colPos1: 'nope',
    }
    expect(pageTemplates(page(content)).content).toEqual(['Text'])
    expect(pageTemplates(page('not columns')).content).toEqual([])
    expect(pageTemplates({ id: 1 } as unknown as PageData)).toEqual({ layouts: ['Default'], content: [] })
  })

  it.each([
    ['two_columns', 'menu_sitemap_pages'],
    ['landing-page', 'form_formframework'],
    ['Hero Layout', 'textmedia'],
  ])('gives the keys the runtime looks %s and %s up by (contract 7.6 naming)', (layout, type) => {
    const needs = pageTemplates(page({ colPos0: [element(1, type)] }, layout))
    const component = () => null
    const registry = {
      layouts: { Default: () => null, [needs.layouts[0] as string]: component },
      content: { Default: () => null, [needs.content[0] as string]: component },
    } as unknown as TemplateRegistry
    expect(resolveLayout(registry, layout)).toBe(component)
    expect(resolveContent(registry, type)).toBe(component)
  })
})

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

describe('keepsMain and templateNeeds', () => {
  const keys = (client: string[]) => ({
    layouts: { Default: 1, TwoColumns: 1 },
    content: { Default: 1, Text: 1, Form: 1 },
    texts: { en: 1, pl: 1 },
    client,
  })
  const textPage = page({ colPos0: [element(1, 'text'), element(2, 'shortcut', { shortcut: [element(3, 'form')] })] })

  it('keeps the main when no template marked use client renders in it', () => {
    expect(keepsMain(at(textPage), keys([]))).toBe(true)
    expect(keepsMain(at(textPage), keys(['layouts/TwoColumns', 'content/Image']))).toBe(true)
    expect(keepsMain(at(null), keys(['content/Form']))).toBe(true)
  })

  it('hydrates the main when its layout or the error page is marked', () => {
    expect(keepsMain(at(page({}, 'two_columns')), keys(['layouts/TwoColumns']))).toBe(false)
    expect(keepsMain(at(textPage), keys(['layouts/Default', 'content/Form']))).toBe(false)
    expect(keepsMain(at(null), keys(['ErrorPage']))).toBe(false)
  })

  it('keeps the main with islands when only content elements are marked (nested ones and the Default fallback included)', () => {
    expect(keepsMain(at(textPage), keys(['content/Form']))).toBe(true)
    expect(mainHydration(at(textPage), keys(['content/Form']))).toEqual({
      kind: 'islands',
      islands: [{ element: element(3, 'form'), index: 0, template: 'Form' }],
    })
    // `shortcut` has no template: it renders with Default, and holds the form: only the outermost marked element is an island.
    expect(mainHydration(at(textPage), keys(['content/Default', 'content/Form']))).toEqual({
      kind: 'islands',
      islands: [{ element: element(2, 'shortcut', { shortcut: [element(3, 'form')] }), index: 1, template: 'Default' }],
    })
    expect(mainHydration(at(textPage), keys(['content/Text', 'content/Image'])).kind).toBe('islands')
    expect(mainHydration(at(textPage), keys(['content/Image']))).toEqual({ kind: 'kept' })
    expect(mainHydration(at(textPage), keys([]))).toEqual({ kind: 'kept' })
  })

  it('hydrates the main when a marked element has no frame of its own or renders more than once', () => {
    const frameless = page({ colPos0: [{ ...element(1, 'text'), appearance: { frameClass: 'none' } }] })
    expect(mainHydration(at(frameless), keys(['content/Text']))).toEqual({ kind: 'full' })
    // Inside a marked element, a frameless one is part of that island.
    const inside = page({
      colPos0: [element(2, 'form', { items: [{ ...element(1, 'text'), appearance: { frameClass: 'none' } }] })],
    })
    expect(mainHydration(at(inside), keys(['content/Text', 'content/Form'])).kind).toBe('islands')
    const twice = page({
      colPos0: [element(1, 'text')],
      colPos1: [element(2, 'shortcut', { shortcut: [element(1, 'text')] })],
    })
    expect(mainHydration(at(twice), keys(['content/Text']))).toEqual({ kind: 'full' })
    expect(mainHydration(at(textPage, 'en', true), keys(['content/Form']))).toEqual({ kind: 'full' })
  })

  it('hydrates the main in editor preview', () => {
    expect(keepsMain(at(textPage, 'en', true), keys([]))).toBe(false)
  })

  it('bootHydration: the same answer for the boot JSON, islands by uid (the element stays in the page); full without keys', () => {
    expect(bootHydration(at(textPage), keys(['content/Form']))).toEqual({
      kind: 'islands',
      islands: [{ uid: 3, index: 0, template: 'Form' }],
    })
    expect(bootHydration(at(textPage), keys(['content/Default', 'content/Form']))).toEqual({
      kind: 'islands',
      islands: [{ uid: 2, index: 1, template: 'Default' }],
    })
    expect(bootHydration(at(textPage), keys([]))).toEqual({ kind: 'kept' })
    expect(bootHydration(at(textPage), keys(['layouts/Default']))).toEqual({ kind: 'full' })
    expect(bootHydration(at(textPage, 'en', true), keys([]))).toEqual({ kind: 'full' })
    // No template chunks, no word of what is marked: the safe answer.
    expect(bootHydration(at(textPage), undefined)).toEqual({ kind: 'full' })
  })

  it('names registry keys after the Default fallback, the locale’s texts, and nothing of the main without main', () => {
    expect(templateNeeds(at(textPage, 'pl'), keys([]), { main: true })).toEqual({
      layouts: ['Default'],
      content: ['Default', 'Form', 'Text'],
      errorPage: false,
      texts: 'pl',
    })
    expect(templateNeeds(at(textPage, 'de'), keys([]), { main: false })).toEqual({
      layouts: [],
      content: [],
      errorPage: false,
      texts: 'en',
    })
    expect(templateNeeds(at(null, 'pl'), { layouts: {}, content: {} }, { main: true })).toEqual({
      layouts: [],
      content: [],
      errorPage: true,
    })
  })
})
