import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it } from 'vitest'
import { prepareInitialData, preparePage } from '../../../src/render/prepare.js'
import { renderPage } from '../../../src/render/render-page.js'
import { SiteApp } from '../../../src/runtime/index.js'
import type { TemplateRegistry } from '../../../src/shared/contract.js'
import { loadRegistry, makeElement, makePage, makeState, readJson } from './helpers.js'

let registry: TemplateRegistry
beforeAll(async () => {
  registry = await loadRegistry()
})

// The browser hydrates `<SiteApp state registry />` without the server's trace and problem list:
// its first render must give the very markup the server wrote.
describe('server and browser render the same markup', () => {
  it.each([
    [
      'the contract page',
      () =>
        makeState({
          page: preparePage(readJson('contract/nuxt-typo3-main/page.json')).page,
          initialData: prepareInitialData(readJson('contract/nuxt-typo3-main/initialData.json')).data,
        }),
    ],
    [
      'a page in editor preview',
      () =>
        makeState({ mode: 'preview', editorPreview: true, page: makePage([makeElement('text', { header: 'Hi' })]) }),
    ],
    [
      'a 404 without page',
      () => makeState({ locale: 'pl', status: 404, error: { status: 404, message: 'Page not found: /pl/x' } }),
    ],
  ])('%s', (_name, state) => {
    const value = state()
    const server = renderPage(value, registry)
    expect(renderToString(<SiteApp state={value} registry={registry} />)).toBe(server.appHtml)
    expect(renderPage(value, registry)).toEqual(server)
  })

  it.each([
    [
      'the contract page',
      () =>
        makeState({
          page: preparePage(readJson('contract/nuxt-typo3-main/page.json')).page,
          initialData: prepareInitialData(readJson('contract/nuxt-typo3-main/initialData.json')).data,
        }),
    ],
    [
      'a 404 without page',
      () => makeState({ locale: 'pl', status: 404, error: { status: 404, message: 'Page not found: /pl/x' } }),
    ],
  ])('%s: with the main kept as the server rendered it, from Header, Footer and texts alone', (_name, state) => {
    const value = state()
    const server = renderPage(value, registry)
    const main = /<main id="main" tabindex="-1">([\s\S]*)<\/main>/.exec(server.appHtml)?.[1]
    expect(main).toBeTruthy()
    // What the browser has before it hydrates such a page: no layout, no content element, no error page.
    const shell: TemplateRegistry = { ...registry, layouts: {}, content: {}, ErrorPage: () => null }
    expect(renderToString(<SiteApp state={value} registry={shell} keptMain={{ __html: main as string }} />)).toBe(
      server.appHtml,
    )
  })

  it('writes no resource links React would hoist before the app (hydration would meet them)', () => {
    const value = makeState({ page: preparePage(readJson('contract/nuxt-typo3-main/page.json')).page })
    expect(renderPage(value, registry).appHtml.startsWith('<div id="site-loading-bar"')).toBe(true)
  })
})
