import { describe, expect, it } from 'vitest'
import {
  decideClientStart,
  decideHydration,
  pageTemplates,
  preloadUrls,
  type TemplateState,
  templateNeeds,
} from '../../../src/hydration/plan.js'
import { resolveContent, resolveLayout } from '../../../src/runtime/names.js'
import type { BootHydration, TemplateChunks, TemplateRegistry } from '../../../src/shared/contract.js'
import type { PageData } from '../../../src/shared/types.js'
import { at, element, page } from './states.js'

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
  ])('gives the keys the runtime looks %s and %s up by (PascalCase names)', (layout, type) => {
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

describe('decideHydration: how a page’s main hydrates, decided once by the server', () => {
  const keys = (client: string[]) => ({
    layouts: { Default: 1, TwoColumns: 1 },
    content: { Default: 1, Text: 1, Form: 1 },
    texts: { en: 1, pl: 1 },
    client,
  })
  const textPage = page({ colPos0: [element(1, 'text'), element(2, 'shortcut', { shortcut: [element(3, 'form')] })] })
  const frameless = page({ colPos0: [{ ...element(1, 'text'), appearance: { frameClass: 'none' } }] })
  // Inside a marked element, a frameless one is part of that island.
  const framelessInside = page({
    colPos0: [element(2, 'form', { items: [{ ...element(1, 'text'), appearance: { frameClass: 'none' } }] })],
  })
  const twice = page({
    colPos0: [element(1, 'text')],
    colPos1: [element(2, 'shortcut', { shortcut: [element(1, 'text')] })],
  })
  const islands = (...list: Array<[number, number, string]>): BootHydration => ({
    kind: 'islands',
    islands: list.map(([uid, index, template]) => ({ uid, index, template })),
  })

  it.each<[string, TemplateState, ReturnType<typeof keys> | undefined, BootHydration]>([
    ['no template chunks: no word of what is marked, the safe answer', at(textPage), undefined, { kind: 'full' }],
    ['nothing marked', at(textPage), keys([]), { kind: 'kept' }],
    [
      'marked templates the page does not render',
      at(textPage),
      keys(['layouts/TwoColumns', 'content/Image']),
      { kind: 'kept' },
    ],
    ['an error page with a marked content element', at(null), keys(['content/Form']), { kind: 'kept' }],
    ['editor preview', at(textPage, 'en', true), keys([]), { kind: 'full' }],
    ['editor preview with islands', at(textPage, 'en', true), keys(['content/Form']), { kind: 'full' }],
    ['its layout marked', at(page({}, 'two_columns')), keys(['layouts/TwoColumns']), { kind: 'full' }],
    ['the Default layout marked', at(textPage), keys(['layouts/Default', 'content/Form']), { kind: 'full' }],
    ['the error page marked', at(null), keys(['ErrorPage']), { kind: 'full' }],
    ['a nested content element marked', at(textPage), keys(['content/Form']), islands([3, 0, 'Form'])],
    // `shortcut` has no template: it renders with Default and holds the form: only the outermost marked element is an island.
    [
      'Default marked, holding a marked one',
      at(textPage),
      keys(['content/Default', 'content/Form']),
      islands([2, 1, 'Default']),
    ],
    ['a marked element without a frame', at(frameless), keys(['content/Text']), { kind: 'full' }],
    [
      'a frameless element inside a marked one',
      at(framelessInside),
      keys(['content/Text', 'content/Form']),
      islands([2, 0, 'Form']),
    ],
    ['a marked element rendered twice', at(twice), keys(['content/Text']), { kind: 'full' }],
  ])('%s', (_case, state, given, expected) => {
    expect(decideHydration(state, given)).toEqual(expected)
  })
})

describe('decideClientStart: when the browser loads a page’s client', () => {
  const keys = (client: string[]) => ({ layouts: { Default: 1 }, content: { Default: 1 }, client })
  const kept: BootHydration = { kind: 'kept' }
  it.each<[string, 'static' | 'preview', ReturnType<typeof keys> | undefined, BootHydration, 'paint' | 'intent']>([
    ['a static page whose main keeps its markup', 'static', keys(['content/Form']), kept, 'intent'],
    ['its Header marked', 'static', keys(['Header']), kept, 'paint'],
    ['its Footer marked', 'static', keys(['Footer']), kept, 'paint'],
    ['a main that hydrates in full', 'static', keys([]), { kind: 'full' }, 'paint'],
    [
      'islands',
      'static',
      keys(['content/Form']),
      { kind: 'islands', islands: [{ uid: 1, index: 0, template: 'Form' }] },
      'paint',
    ],
    ['preview', 'preview', keys([]), kept, 'paint'],
    ['no template chunks: no word of what is marked', 'static', undefined, kept, 'paint'],
  ])('%s', (_case, mode, given, hydration, expected) => {
    expect(decideClientStart(mode, given, hydration)).toBe(expected)
  })
})

describe('templateNeeds', () => {
  const keys = {
    layouts: { Default: 1, TwoColumns: 1 },
    content: { Default: 1, Text: 1, Form: 1 },
    texts: { en: 1, pl: 1 },
  }
  const textPage = page({ colPos0: [element(1, 'text'), element(2, 'shortcut', { shortcut: [element(3, 'form')] })] })

  it('names registry keys after the Default fallback, the locale’s texts, and nothing of the main without main', () => {
    expect(templateNeeds(at(textPage, 'pl'), keys, { main: true })).toEqual({
      layouts: ['Default'],
      content: ['Default', 'Form', 'Text'],
      errorPage: false,
      texts: 'pl',
    })
    expect(templateNeeds(at(textPage, 'de'), keys, { main: false })).toEqual({
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

describe('preloadUrls', () => {
  const chunks: TemplateChunks = {
    layouts: {
      Default: ['/_site/l-default.js', '/_site/shared-layouts.js'],
      TwoColumns: ['/_site/l-two.js', '/_site/shared-layouts.js'],
    },
    content: {
      Default: ['/_site/c-default.js'],
      Text: ['/_site/c-text.js'],
      Shortcut: ['/_site/c-shortcut.js'],
      Image: ['/_site/c-image.js', '/_site/chunk-1.js'],
      Table: ['/_site/c-table.js'],
    },
    texts: { en: ['/_site/t-en.js'], pl: ['/_site/t-pl.js'] },
    ErrorPage: ['/_site/error.js'],
    islands: ['/_site/islands.js', '/_site/chunk-1.js'],
  }
  const demoPage = page(
    {
      colPos0: [
        element(1, 'text'),
        element(2, 'shortcut', { shortcut: [element(12, 'image')] }),
        element(3, 'custom_widget'),
      ],
    },
    'two_columns',
  )
  const preloads = (client: string[], state: TemplateState) => {
    const assets = {
      scripts: [],
      styles: [],
      modulePreloads: ['/_site/chunk-1.js'],
      templateChunks: { ...chunks, client },
    }
    return preloadUrls(assets, state, decideHydration(state, assets.templateChunks))
  }

  it('kept: the entry’s preloads and the texts of its locale', () => {
    expect(preloads([], at(demoPage, 'pl'))).toEqual(['/_site/chunk-1.js', '/_site/t-pl.js'])
    expect(preloads(['content/Table'], at(demoPage, 'de'))).toEqual(['/_site/chunk-1.js', '/_site/t-en.js'])
    expect(preloads([], at(null))).toEqual(['/_site/chunk-1.js', '/_site/t-en.js'])
  })

  it('full: every template of its main, each URL once', () => {
    expect(preloads(['layouts/TwoColumns'], at(demoPage))).toEqual([
      '/_site/chunk-1.js',
      '/_site/l-two.js',
      '/_site/shared-layouts.js',
      '/_site/c-default.js',
      '/_site/c-image.js',
      '/_site/c-shortcut.js',
      '/_site/c-text.js',
      '/_site/t-en.js',
    ])
    expect(preloads([], at(demoPage, 'en', true))).toContain('/_site/c-text.js')
    expect(preloads(['ErrorPage'], at(null))).toEqual(['/_site/chunk-1.js', '/_site/error.js', '/_site/t-en.js'])
  })

  it('islands: the islands code and the marked elements’ chunks, not the main', () => {
    expect(preloads(['content/Image'], at(demoPage))).toEqual([
      '/_site/chunk-1.js',
      '/_site/t-en.js',
      '/_site/islands.js',
      '/_site/c-image.js',
    ])
  })

  it('without template chunks: the entry’s preloads only', () => {
    const state = at(demoPage)
    expect(preloadUrls({ scripts: [], styles: [], modulePreloads: ['/a.js'] }, state, { kind: 'full' })).toEqual([
      '/a.js',
    ])
  })
})
