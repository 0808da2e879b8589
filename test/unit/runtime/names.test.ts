import { describe, expect, it } from 'vitest'
import { pascalCase, resolveContent, resolveLayout } from '../../../src/runtime/names.js'
import type { TemplateRegistry } from '../../../src/shared/contract.js'

describe('pascalCase (layout and content type names, converted as nuxt-typo3 does)', () => {
  it.each([
    ['two_columns', 'TwoColumns'],
    ['singlecolumn', 'Singlecolumn'],
    ['textpic', 'Textpic'],
    ['menu_pages', 'MenuPages'],
    ['form_formframework', 'FormFormframework'],
    ['menu_sitemap_pages', 'MenuSitemapPages'],
    ['example', 'Example'],
    ['news-list', 'NewsList'],
    ['myCustomType', 'MyCustomType'],
    ['default', 'Default'],
  ])('%s -> %s', (input, output) => {
    expect(pascalCase(input)).toBe(output)
  })
})

describe('registry lookup', () => {
  const Default = () => null
  const TwoColumns = () => null
  const Text = () => null
  const registry = {
    layouts: { Default, TwoColumns },
    content: { Default, Text },
    Header: () => null,
    Footer: () => null,
    ErrorPage: () => null,
  } as unknown as TemplateRegistry

  it('finds layouts by backend layout name, Default when none matches or none is set', () => {
    expect(resolveLayout(registry, 'two_columns')).toBe(TwoColumns)
    expect(resolveLayout(registry, 'example')).toBe(Default)
    expect(resolveLayout(registry, '')).toBe(Default)
    expect(resolveLayout(registry, undefined)).toBe(Default)
  })

  it('finds content components by type, Default otherwise, never inherited object keys', () => {
    expect(resolveContent(registry, 'text')).toBe(Text)
    expect(resolveContent(registry, 'news_pi1')).toBe(Default)
    expect(resolveContent(registry, 'constructor')).toBe(Default)
    expect(resolveContent(registry, '__proto__')).toBe(Default)
  })
})
