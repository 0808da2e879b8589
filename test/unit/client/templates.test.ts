import type { ComponentType } from 'react'
import { describe, expect, it } from 'vitest'
import { createTemplateLoader, type LazyTemplates } from '../../../src/client/templates.js'
import type { ContentElementProps, LayoutProps, TemplateRegistry } from '../../../src/render/types.js'
import { pageTemplates } from '../../../src/runtime/page-templates.js'
import { resolveContent, resolveLayout } from '../../../src/runtime/names.js'
import type { PageData } from '../../../src/shared/types.js'

const element = (id: number, type: string, content: Record<string, unknown> = {}) => ({ id, type, content })

const page = (content: unknown, backendLayout?: unknown): PageData =>
  ({ id: 1, title: 'P', slug: '/p', meta: {}, appearance: backendLayout === undefined ? {} : { backendLayout }, content }) as unknown as PageData

/** A named component per template, and a log of the loaders called. */
function fakeTemplates(options: { fail?: Set<string> } = {}) {
  const calls: string[] = []
  const component = (name: string) => Object.assign(() => null, { displayName: name })
  const loaders = <P>(kind: string, names: string[]) =>
    Object.fromEntries(
      names.map((name) => [
        name,
        async () => {
          calls.push(`${kind}/${name}`)
          if (options.fail?.has(`${kind}/${name}`)) throw new TypeError(`Failed to fetch dynamically imported module: /_site/assets/${name}.js`)
          return { default: component(`${kind}/${name}`) as ComponentType<P> }
        },
      ]),
    )
  const templates: LazyTemplates = {
    layouts: loaders<LayoutProps>('layouts', ['Default', 'TwoColumns']),
    content: loaders<ContentElementProps>('content', ['Default', 'Text', 'Shortcut', 'Image', 'MenuPages']),
    Header: component('Header') as TemplateRegistry['Header'],
    Footer: component('Footer') as TemplateRegistry['Footer'],
    ErrorPage: component('ErrorPage') as TemplateRegistry['ErrorPage'],
  }
  return { templates, calls }
}

const names = (map: object): string[] => Object.keys(map).sort()

describe('pageTemplates', () => {
  it('names the layout and every content type of every column, nested elements (shortcut) included', () => {
    const shortcut = element(3, 'shortcut', { shortcut: [element(4, 'image'), element(5, 'menu_pages', { items: [element(6, 'text')] })] })
    const needs = pageTemplates(page({ colPos0: [element(1, 'text'), shortcut], colPos1: [element(2, 'text')] }, 'two_columns'))
    expect(needs).toEqual({ layouts: ['TwoColumns'], content: ['Image', 'MenuPages', 'Shortcut', 'Text'] })
  })

  it('asks for the Default layout when none is named, and none at all without a page (an error page)', () => {
    expect(pageTemplates(page({}, ''))).toEqual({ layouts: ['Default'], content: [] })
    expect(pageTemplates(page({}))).toEqual({ layouts: ['Default'], content: [] })
    expect(pageTemplates(null)).toEqual({ layouts: [], content: [] })
  })

  it('counts only what passes the envelope check, and survives any data shape', () => {
    const files = { publicUrl: '/a.pdf', properties: { type: 'application' } }
    const content = { colPos0: [element(1, 'text', { media: [files] }), { id: 'x', type: 'html', content: {} }, { id: 2, type: 'div' }, null, 'text', 7], colPos1: 'nope' }
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
    const registry = await loader.load(page({ colPos0: [element(1, 'text'), element(2, 'shortcut', { shortcut: [element(3, 'image')] })] }, 'two_columns'))
    expect(calls.sort()).toEqual(['content/Image', 'content/Shortcut', 'content/Text', 'layouts/TwoColumns'])
    expect(names(registry.layouts)).toEqual(['TwoColumns'])
    expect(names(registry.content)).toEqual(['Image', 'Shortcut', 'Text'])
    expect(registry.Header).toBe(templates.Header)
    expect(resolveContent(registry, 'text')).toBe(registry.content.Text)
    expect(resolveLayout(registry, 'two_columns')).toBe(registry.layouts.TwoColumns)
  })

  it('loads Default for types and layouts without a template, as the runtime falls back to it', async () => {
    const { templates, calls } = fakeTemplates()
    const registry = await createTemplateLoader(templates).load(page({ colPos0: [element(1, 'custom_widget'), element(2, 'constructor')] }, 'landing'))
    expect(calls.sort()).toEqual(['content/Default', 'layouts/Default'])
    expect(resolveContent(registry, 'custom_widget')).toBe(registry.content.Default)
    expect(resolveContent(registry, 'constructor')).toBe(registry.content.Default)
    expect(resolveLayout(registry, 'landing')).toBe(registry.layouts.Default)
  })

  it('loads nothing for an error page without page data: ErrorPage, Header and Footer are part of the entry', async () => {
    const { templates, calls } = fakeTemplates()
    const registry = await createTemplateLoader(templates).load(null)
    expect(calls).toEqual([])
    expect(registry.ErrorPage).toBe(templates.ErrorPage)
  })

  it('loads each template once and keeps what it loaded for later pages; the registry changes only when it grows', async () => {
    const { templates, calls } = fakeTemplates()
    const loader = createTemplateLoader(templates)
    const home = page({ colPos0: [element(1, 'text')] })
    const [first, again] = await Promise.all([loader.load(home), loader.load(home)])
    expect(calls).toEqual(['layouts/Default', 'content/Text'])
    expect(again).toBe(first)
    expect(await loader.load(home)).toBe(first)
    const next = await loader.load(page({ colPos0: [element(2, 'image')] }))
    expect(calls).toEqual(['layouts/Default', 'content/Text', 'content/Image'])
    expect(names(next.content)).toEqual(['Image', 'Text'])
    expect(loader.registry).toBe(next)
  })

  it('rejects with the chunk load error when a chunk fails, and asks for that chunk again next time', async () => {
    const fail = new Set(['content/Image'])
    const { templates, calls } = fakeTemplates({ fail })
    const loader = createTemplateLoader(templates)
    const withImage = page({ colPos0: [element(1, 'image'), element(2, 'text')] })
    await expect(loader.load(withImage)).rejects.toThrow(/Failed to fetch dynamically imported module/)
    expect(names(loader.registry.content)).toEqual([])
    fail.clear()
    const registry = await loader.load(withImage)
    expect(calls.filter((call) => call === 'content/Image')).toHaveLength(2)
    expect(calls.filter((call) => call === 'content/Text')).toHaveLength(1)
    expect(names(registry.content)).toEqual(['Image', 'Text'])
  })
})
