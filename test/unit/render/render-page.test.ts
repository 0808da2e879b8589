import { createElement } from 'react'
import { beforeAll, describe, expect, it } from 'vitest'
import type { SiteError } from '../../../src/errors.js'
import { prepareInitialData, preparePage } from '../../../src/render/prepare.js'
import { renderPage } from '../../../src/render/render-page.js'
import type { TemplateRegistry } from '../../../src/shared/contract.js'
import { loadRegistry, mainOf, makeElement, makePage, makeState, readJson, renderElements } from './helpers.js'

let registry: TemplateRegistry
beforeAll(async () => {
  registry = await loadRegistry()
})

const initialData = () => prepareInitialData(readJson('contract/nuxt-typo3-main/initialData.json')).data

describe('the contract fixtures render without error', () => {
  it.each(['contract/nuxt-typo3-main/page.json', 'contract/nuxt-typo3-main/en-page.json'])(
    '%s with initialData.json',
    (file) => {
      const { page } = preparePage(readJson(file))
      const result = renderPage(makeState({ page, initialData: initialData() }), registry)
      expect(result.problems).toEqual([])
      expect(result.status).toBe(200)
      expect(result.bodyAttrs.class).toBe('pid-47 layout-layout-0')
      expect(result.htmlAttrs).toEqual({ lang: 'en', dir: 'ltr' })
      expect(result.appHtml).toContain('<main id="main" tabindex="-1">')
      for (const el of page?.content.colPos0 ?? []) expect(result.appHtml).toContain(`id="c${el.id}"`)
    },
  )

  const elementFixtures: Array<[string, (raw: Record<string, unknown>) => unknown[]]> = [
    ['T3CeDefault.data.json', (raw) => [raw]],
    ['T3Debug.data.json', (raw) => [raw]],
    ['T3FormFormframework.data.json', (raw) => [raw]],
    ['T3Renderer.data.json', (raw) => raw.content as unknown[]],
    ['T3Dynamic.data.json', (raw) => Object.values(raw).map((v) => (v as { data: unknown }).data)],
    [
      'T3Form.data.json',
      (raw) => [
        { id: 500, type: 'form_formframework', content: { form: { id: 'fixture-form', elements: raw.elements } } },
      ],
    ],
  ]
  it.each(elementFixtures)('1.x %s as content elements', (file, toElements) => {
    const elements = toElements(readJson(`contract/nuxt-typo3-1.x/${file}`) as Record<string, unknown>)
    const result = renderElements(registry, elements)
    expect(result.problems).toEqual([])
    expect(mainOf(result.appHtml).length).toBeGreaterThan(200)
  })

  it('renders the 1.x form fixtures as labelled controls', () => {
    const form = mainOf(
      renderElements(registry, [readJson('contract/nuxt-typo3-1.x/T3FormFormframework.data.json')]).appHtml,
    )
    expect(form).toMatch(
      /<form id="contact-379" class="form" action="\/form-1\?tx_form_formframework%5Baction%5D=perform&amp;tx_form_formframework[^"]*" method="post">/,
    )
    expect(form).toMatch(/<label for="contact-379-email" class="form__label">Email/)
    const email = /<input id="contact-379-email"[^>]*>/.exec(form)?.[0] ?? ''
    for (const attr of [
      'name="tx_form_formframework[email]"',
      'required=""',
      'type="email"',
      'placeholder="your email"',
    ])
      expect(email).toContain(attr)
    expect(form).toContain('value="+49"')
    const t3form = mainOf(
      renderElements(registry, [
        {
          id: 500,
          type: 'form_formframework',
          content: {
            form: {
              id: 'f',
              elements: (readJson('contract/nuxt-typo3-1.x/T3Form.data.json') as { elements: unknown }).elements,
            },
          },
        },
      ]).appHtml,
    )
    expect(t3form).toContain('<legend>Personal Information</legend>')
    expect(t3form).toContain('type="email"')
  })
})

describe('layouts and the page class', () => {
  it('picks the backend layout by name, Default when none matches', () => {
    const two = makePage(
      [makeElement('text', { header: 'Main' }), { ...makeElement('text', { header: 'Aside' }), id: 12 }],
      { appearance: { layout: 'layout-1', backendLayout: 'two_columns' } },
    )
    two.content.colPos1 = two.content.colPos0?.splice(1) ?? []
    const html = renderPage(makeState({ page: two }), registry).appHtml
    expect(html).toContain('layout--two-columns')
    expect(html).toMatch(/<aside class="layout__aside">.*Aside.*<\/aside>/s)
    const unknown = renderPage(
      makeState({ page: makePage([], { appearance: { backendLayout: 'example' } }) }),
      registry,
    )
    expect(unknown.appHtml).toContain('layout--default')
  })

  it('reports each layout and content element type that had no template of its own', () => {
    const page = makePage(
      [
        makeElement('text', { header: 'Known' }),
        { ...makeElement('textpic_custom', { header: 'Unknown' }), id: 12 },
        { ...makeElement('textpic_custom', { header: 'Again' }), id: 13 },
        { ...makeElement('shortcut', { shortcut: [{ ...makeElement('nested_thing', {}), id: 14 }] }), id: 15 },
      ],
      { appearance: { backendLayout: 'pagets__landing' } },
    )
    const result = renderPage(makeState({ page }), registry)
    expect(result.appHtml).toContain('layout--default')
    expect(result.fallbacks).toEqual([
      { kind: 'layout', name: 'pagets__landing' },
      { kind: 'content', name: 'textpic_custom' },
      { kind: 'content', name: 'textpic_custom' },
      { kind: 'content', name: 'nested_thing' },
    ])
    // A page without a backend layout, and types that have their file, fall back to nothing.
    const plain = makePage([makeElement('text', { header: 'Known' })], { appearance: {} })
    expect(renderPage(makeState({ page: plain }), registry).fallbacks).toEqual([])
  })

  it('builds the page class from the page id and layout', () => {
    const result = renderPage(
      makeState({ page: makePage([], { id: 31, appearance: { layout: 'layout-2' } }) }),
      registry,
    )
    expect(result.bodyAttrs.class).toBe('pid-31 layout-layout-2')
  })

  it('wraps every page in header and footer, including the error page', () => {
    for (const state of [
      makeState({ page: makePage([]) }),
      makeState({ status: 404, error: { status: 404, message: 'Page not found: /x' } }),
    ]) {
      const html = renderPage(state, registry).appHtml
      expect(html.indexOf('<header class="site-header')).toBeLessThan(html.indexOf('<main'))
      expect(html.indexOf('<footer class="site-footer"')).toBeGreaterThan(html.indexOf('</main>'))
      expect(html.startsWith('<div id="site-loading-bar" aria-hidden="true"></div>')).toBe(true)
    }
  })

  it('marks the header transparent from appearance.headerTransparent', () => {
    expect(
      renderPage(makeState({ page: makePage([], { appearance: { headerTransparent: 1 } }) }), registry).appHtml,
    ).toContain('site-header site-header--transparent')
    expect(
      renderPage(makeState({ page: makePage([], { appearance: { headerTransparent: false } }) }), registry).appHtml,
    ).not.toContain('site-header--transparent')
  })

  it('gives the page one h1: the title, hidden, unless an element has header layout 1', () => {
    const plain = mainOf(renderElements(registry, [makeElement('text', { header: 'Intro', headerLayout: 0 })]).appHtml)
    expect(plain).toContain('<h1 class="visually-hidden">Test page</h1>')
    expect(plain).toContain('<h2 class="ce-headline">Intro</h2>')
    const hero = mainOf(renderElements(registry, [makeElement('text', { header: 'Hero', headerLayout: 1 })]).appHtml)
    expect(hero.match(/<h1/g)).toHaveLength(1)
  })
})

describe('error pages', () => {
  it('renders the error body page in its backend layout instead of the plain error (TYPO3 error handler page)', () => {
    const page = makePage([makeElement('text', { header: 'Lost?', bodytext: '<p>Try the search.</p>' })], {
      appearance: { backendLayout: 'two_columns' },
    })
    const result = renderPage(
      makeState({ status: 404, page, error: { status: 404, message: 'Page not found: /x' } }),
      registry,
    )
    expect(result.status).toBe(404)
    expect(result.appHtml).toContain('Try the search.')
    expect(result.appHtml).toContain('layout--two-columns')
    expect(result.appHtml).not.toContain('error-page')
  })

  it('shows the raw error only with debug in preview, never in a static build', () => {
    const error = { status: 500, message: 'boom', raw: { secret: 'stack trace here' } }
    const staticHtml = renderPage(makeState({ status: 500, error, debug: true }), registry).appHtml
    expect(staticHtml).not.toContain('stack trace here')
    const preview = renderPage(makeState({ status: 500, error, debug: true, mode: 'preview' }), registry).appHtml
    expect(preview).toContain('<pre class="error-page__debug" tabindex="0">')
    expect(preview).toContain('stack trace here')
    expect(renderPage(makeState({ status: 500, error, mode: 'preview' }), registry).appHtml).not.toContain(
      'stack trace here',
    )
  })
})

describe('failures never crash a render', () => {
  it('renders mistyped pages and reports the problems', () => {
    for (const file of ['hostile/page-mistyped.json', 'hostile/page-bad-elements.json']) {
      const prepared = preparePage(readJson(file))
      const result = renderPage(makeState({ page: prepared.page }), registry)
      expect(prepared.problems.length).toBeGreaterThan(0)
      expect(result.appHtml).toContain('<main')
    }
  })

  it('reports unrepaired data handed to it directly (null content, strings for lists)', () => {
    const raw = {
      id: 3,
      meta: null,
      appearance: null,
      content: { colPos0: [null, { id: 'x' }, { id: 4, type: 'text', content: { header: 'ok' } }] },
    } as never
    const result = renderPage(makeState({ page: raw }), registry)
    expect(result.appHtml).toContain('ok')
    expect(result.problems).toHaveLength(2)
    const noContent = renderPage(
      makeState({ page: { id: 3, meta: {}, appearance: {}, content: null } as never }),
      registry,
    )
    expect(noContent.appHtml).toContain('<main')
  })

  it('skips an element whose template throws and reports it', () => {
    const broken: TemplateRegistry = {
      ...registry,
      content: {
        ...registry.content,
        Bullets: () => {
          throw new Error('bullets exploded')
        },
      },
    }
    const elements = [
      makeElement('text', { header: 'Before' }, { id: 1 }),
      makeElement('bullets', { bodytext: ['a'] }, { id: 2 }),
      makeElement(
        'shortcut',
        {
          shortcut: [
            makeElement('bullets', { bodytext: ['b'] }, { id: 3 }),
            makeElement('text', { header: 'Nested ok' }, { id: 4 }),
          ],
        },
        { id: 5 },
      ),
      makeElement('text', { header: 'After' }, { id: 6 }),
    ]
    const result = renderElements(broken, elements)
    expect(result.appHtml).toContain('Before')
    expect(result.appHtml).toContain('Nested ok')
    expect(result.appHtml).toContain('After')
    expect(result.appHtml).not.toContain('id="c2"')
    expect(result.appHtml).not.toContain('id="c3"')
    const skipped = result.problems.filter((p) => p.message.includes('bullets exploded'))
    expect(skipped.map((p) => [p.kind, p.elementUid])).toEqual([
      ['ELEMENT_SKIPPED', 2],
      ['ELEMENT_SKIPPED', 3],
    ])
  })

  it("skips an element that renders an async component, and says so instead of React's words", () => {
    async function Quote() {
      return null
    }
    const awaiting: TemplateRegistry = {
      ...registry,
      content: { ...registry.content, Bullets: () => createElement('div', null, createElement(Quote)) },
    }
    const elements = [
      makeElement('text', { header: 'Before' }, { id: 1 }),
      makeElement('bullets', { bodytext: ['a'] }, { id: 2 }),
      makeElement('text', { header: 'After' }, { id: 3 }),
    ]
    const result = renderElements(awaiting, elements)
    expect(result.appHtml).toContain('Before')
    expect(result.appHtml).toContain('After')
    expect(result.appHtml).not.toContain('id="c2"')
    expect(result.appHtml).not.toContain('<!--$')
    expect(result.problems.map((p) => [p.kind, p.elementUid, p.message])).toEqual([
      [
        'ELEMENT_SKIPPED',
        2,
        '/: content element 2 (bullets) skipped, its template threw: a component it renders is async or waits for a promise (a page renders at once: nothing can be awaited while it renders)',
      ],
    ])
  })

  // It said why, but not in which template: the author searched the header, the footer and every layout.
  it('names the template outside the elements that renders an async component, in words an author can act on', () => {
    async function Clock() {
      return null
    }
    const page = makePage([])
    const why =
      'a component it renders is async or waits for a promise (a page renders at once: nothing can be awaited while it renders)'
    const cases: Array<[TemplateRegistry, string]> = [
      [{ ...registry, Footer: () => createElement(Clock) }, 'templates/Footer'],
      [{ ...registry, Header: () => createElement(Clock) }, 'templates/Header'],
      [
        { ...registry, layouts: { ...registry.layouts, Default: () => createElement(Clock) } },
        'templates/layouts/Default',
      ],
    ]
    for (const [awaiting, file] of cases)
      expect(() => renderPage(makeState({ page }), awaiting)).toThrow(`Rendering / failed: ${file}: ${why}`)
    // a page of another layout (its backend layout `two_columns`) names that one
    const twoColumns = makePage([], { appearance: { layout: 'layout-0', backendLayout: 'two_columns' } })
    const awaitingLayout = { ...registry, layouts: { ...registry.layouts, TwoColumns: () => createElement(Clock) } }
    expect(() => renderPage(makeState({ page: twoColumns }), awaitingLayout)).toThrow(
      `Rendering / failed: templates/layouts/TwoColumns: ${why}`,
    )
    // two of them: no one template to name, and the reason all the same
    const both: TemplateRegistry = {
      ...registry,
      Header: () => createElement(Clock),
      Footer: () => createElement(Clock),
    }
    expect(() => renderPage(makeState({ page }), both)).toThrow(`Rendering / failed: ${why}`)
  })

  it('fails with RENDER_FAILED when the chrome itself throws', () => {
    const broken: TemplateRegistry = {
      ...registry,
      Footer: () => {
        throw new Error('footer down')
      },
    }
    const error = (() => {
      try {
        renderPage(makeState({ page: makePage([]) }), broken)
      } catch (e) {
        return e
      }
    })() as SiteError
    expect(error.code).toBe('RENDER_FAILED')
    expect(error.message).toContain('footer down')
  })
})

describe('editor preview and debug', () => {
  const elements = [
    makeElement('text', { header: 'Hi' }, { id: 21 }),
    makeElement('news_pi1', { secret: 'raw plugin data' }, { id: 22 }),
  ]

  it('adds the pce markup only with editorPreview', () => {
    expect(renderElements(registry, elements).appHtml).not.toMatch(/pce-/)
    const html = renderElements(registry, elements, { mode: 'preview', editorPreview: true }).appHtml
    expect(html).toContain('data-pce-uid="21"')
    expect(html).toContain(
      '<a class="pce-edit-link" href="#c21" data-pce-uid="21" data-label-edit="Edit" data-label-editing="You are currently editing this element">Edit</a>',
    )
  })

  it('keeps unknown types quiet, with their JSON only in preview with debug', () => {
    const quiet = mainOf(renderElements(registry, elements).appHtml)
    expect(quiet).toContain('<div id="c22" class="t3-ce-frame')
    expect(quiet).not.toContain('raw plugin data')
    expect(mainOf(renderElements(registry, elements, { debug: true }).appHtml)).not.toContain('raw plugin data')
    expect(mainOf(renderElements(registry, elements, { mode: 'preview' }).appHtml)).not.toContain('raw plugin data')
    const debug = mainOf(renderElements(registry, elements, { mode: 'preview', debug: true }).appHtml)
    expect(debug).toContain('<pre>')
    expect(debug).toContain('raw plugin data')
  })
})

describe('escaping', () => {
  it('never lets API text out as markup', () => {
    const { page } = preparePage(readJson('hostile/page-hostile.json'))
    const { data } = prepareInitialData(readJson('hostile/initial-data-hostile.json'))
    const result = renderPage(makeState({ page, initialData: data }), registry)
    // The templates' own icons (templates/components/Icon.tsx) are the only SVG allowed out.
    const withoutIcons = result.appHtml.replace(
      /<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"( class="[\w-]+")?><use href="\/icons\.svg#[a-z]+"><\/use><\/svg>/g,
      '',
    )
    expect(withoutIcons).not.toMatch(
      /<script|<style|<iframe|<svg|<object|javascript:|data:|vbscript:|<[a-z][^>]*\son\w+=/i,
    )
    expect(result.appHtml).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(result.appHtml).toContain('&lt;script&gt;alert(&#x27;nav&#x27;)&lt;/script&gt;')
    expect(result.appHtml).toContain('&lt;b&gt;Contact&lt;/b&gt;')
    expect(result.appHtml).toContain('<span>Bad</span>')
  })
})

describe('size', () => {
  it('renders a page of 2400 elements quickly', () => {
    const elements = Array.from({ length: 2400 }, (_, i) =>
      makeElement('text', { header: `E${i}`, bodytext: `<p>${'text '.repeat(300)}</p>` }, { id: i + 1 }),
    )
    const state = makeState({ page: makePage(elements) })
    const started = performance.now()
    const result = renderPage(state, registry)
    expect(performance.now() - started).toBeLessThan(8000)
    expect(result.appHtml.length).toBeGreaterThan(3_000_000)
  })
})
