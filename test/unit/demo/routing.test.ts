import { describe, expect, it } from 'vitest'
import { parseDemoUrl } from '../../../src/demo/paths.js'
import { answerDemoRequest, isInitialDataType } from '../../../src/demo/routing.js'
import { type DemoLanguage, type DemoSource, ORIGIN_TOKEN } from '../../../src/demo/types.js'

const language = (code: string, base: string, languageId: number): DemoLanguage => ({
  languageId,
  twoLetterIsoCode: code,
  navigationTitle: code,
  base,
})
const PAGES: Record<string, string> = {
  '/': '{"id":1}',
  '/pl': '{"id":1,"l":"pl"}',
  '/pl/o-nas': `{"id":2,"img":"${ORIGIN_TOKEN}/fileadmin/a.svg"}`,
}
const source: DemoSource = {
  languages: [language('en', '/', 0), language('pl', '/pl/', 1)],
  page: (path) => PAGES[path],
  redirect: (path) => (path === '/old' ? { redirectUrl: '/new', statusCode: 301 } : undefined),
  initialData: (l) => `{"initial":"${l.twoLetterIsoCode}"}`,
  notFound: (l) => `{"notFound":"${l.twoLetterIsoCode}"}`,
}
const files = new Map([['/fileadmin/a.svg', { absolutePath: '/x/a.svg', contentType: 'image/svg+xml' }]])

function answer(target: string) {
  const parsed = parseDemoUrl(target)
  if (!parsed.ok) throw new Error(parsed.reason)
  return answerDemoRequest({ source, files, url: parsed.url, origin: 'http://127.0.0.1:9' })
}

describe('answerDemoRequest', () => {
  it.each([
    ['/?type=834', 200, '{"initial":"en"}'],
    ['/pl?type=834', 200, '{"initial":"pl"}'],
    ['/pl/?type=835', 200, '{"initial":"pl"}'],
    ['/pl/o-nas?type=834', 200, '{"initial":"pl"}'],
    ['/pl/missing?type=834', 404, '{"notFound":"pl"}'],
    ['/pl/o-nas?type=0', 200, '{"id":2,"img":"http://127.0.0.1:9/fileadmin/a.svg"}'],
    ['/pl/o-nas/', 200, '{"id":2,"img":"http://127.0.0.1:9/fileadmin/a.svg"}'],
    ['/old/', 200, '{"redirectUrl":"/new","statusCode":301}'],
    ['/missing', 404, '{"notFound":"en"}'],
    ['/pl/missing', 404, '{"notFound":"pl"}'],
    ['/fileadmin/missing.svg', 404, '{"notFound":"en"}'],
  ])('%s -> %i %s', (target, status, body) => {
    expect(answer(target)).toEqual({ kind: 'json', status, body })
  })

  it('serves indexed files and the backend stand-in', () => {
    expect(answer('/fileadmin/a.svg')).toEqual({ kind: 'file', file: files.get('/fileadmin/a.svg') })
    const backend = answer('/typo3/record/edit?edit%5Btt_content%5D%5B12%5D=edit')
    expect(backend).toMatchObject({ kind: 'html', status: 200 })
    expect(backend.kind === 'html' && backend.body).toContain('edit[tt_content][12]')
  })

  it('treats any page type but 0 and empty as initial data', () => {
    expect([undefined, '', '0', '834', '835'].map(isInitialDataType)).toEqual([false, false, false, true, true])
  })
})
