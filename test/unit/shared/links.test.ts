import { describe, expect, it } from 'vitest'
import { classifyLink, isFilePath, isSafeContentHref, isSafeHref } from '../../../src/shared/links.js'

const BASE = 'https://www.example.com'

describe('isSafeHref', () => {
  it.each([
    ['https://example.com', true],
    ['mailto:a@b.c', true],
    ['tel:+48123', true],
    ['/about', true],
    ['#top', true],
    ['javascript:alert(1)', false],
    [' JaVaScRiPt:alert(1)', false],
    ['java\tscript:alert(1)', false],
    ['data:text/html,<script>', false],
    ['vbscript:x', false],
    ['', false],
    [null, false],
  ])('isSafeHref(%j) = %s', (href, safe) => expect(isSafeHref(href)).toBe(safe))
})

describe('isSafeContentHref', () => {
  it.each([
    ['/about', true],
    ['https://example.com/a', true],
    ['javascript:alert(1)', false],
    // a browser reads a backslash before the query as a slash: these lead to evil.example
    ['/\\evil.example', false],
    ['\\\\evil.example/x', false],
    ['https:\\\\evil.example', false],
    [' /\t\\evil.example', false],
    ['/a?next=\\b', true],
    ['mailto:a\\b@c.d', true],
  ])('isSafeContentHref(%j) = %s', (href, safe) => expect(isSafeContentHref(href)).toBe(safe))
})

describe('classifyLink: the one link classifier', () => {
  it.each([
    ['/pl/kontakt/', undefined, { type: 'page', path: '/pl/kontakt', search: '', hash: '' }],
    ['/a?x=1#b', undefined, { type: 'page', path: '/a', search: '?x=1', hash: '#b' }],
    ['/de/über-uns', undefined, { type: 'page', path: '/de/%C3%BCber-uns', search: '', hash: '' }],
    ['https://www.example.com/about', BASE, { type: 'page', path: '/about', search: '', hash: '' }],
    ['/page.html', undefined, { type: 'page', path: '/page.html', search: '', hash: '' }],
    ['/news/version-2.0', undefined, { type: 'page', path: '/news/version-2.0', search: '', hash: '' }],
    ['/fileadmin/a.pdf', undefined, { type: 'file', path: '/fileadmin/a.pdf', search: '', hash: '' }],
    ['/fileadmin/report', undefined, { type: 'file', path: '/fileadmin/report', search: '', hash: '' }],
    ['https://www.example.com/logo.SVG?v=2', BASE, { type: 'file', path: '/logo.SVG', search: '?v=2', hash: '' }],
    ['https://other.example/about', BASE, { type: 'external' }],
    ['https://other.example/about', undefined, { type: 'external' }],
    ['//other.example/about', BASE, { type: 'external' }],
    ['mailto:x@y.z', undefined, { type: 'external' }],
    ['relative/path', undefined, { type: 'external' }],
    ['#section', undefined, { type: 'anchor' }],
  ])('%s (base %s)', (href, base, kind) => expect(classifyLink(href, base)).toEqual(kind))

  it.each([
    [42, 'not a string'],
    ['  ', 'empty link'],
    ['javascript:alert(1)', 'unsafe URL scheme'],
    ['/a/../../etc', 'dot segment'],
    ['/a/%2e%2e/b', 'dot segment'],
    ['/a/%2f', 'encoded slash or NUL'],
    ['/a\\b', 'control character or backslash'],
    ['/_site/builds/latest.json', 'internal path'],
    ['/a\ud800b', 'malformed text (a lone UTF-16 surrogate)'],
    ['https://exa mple.com/', 'not a valid URL'],
    ['//exa mple.com/', 'not a valid URL'],
  ])('%j is unsafe: %s', (href, reason) => expect(classifyLink(href)).toEqual({ type: 'unsafe', reason }))

  it('refuses a backslash before the query wherever it stands, as a browser reads it as a slash', () => {
    // `\\evil.invalid`, `/\evil.invalid` and `https:\\evil.invalid` all lead a browser to evil.invalid
    for (const href of [
      '\\\\evil.invalid',
      '\\/evil.invalid',
      '/\\evil.invalid',
      '\\evil.invalid',
      'a\\b',
      'https:\\\\evil.invalid/x',
      'https://other.example\\x',
      'https://www.example.com\\pl',
    ])
      for (const base of [undefined, BASE])
        expect(classifyLink(href, base), `${href} (base ${base})`).toEqual({
          type: 'unsafe',
          reason: 'control character or backslash',
        })
    // in the query or the fragment it is data
    expect(classifyLink('/search?q=a\\b#c\\d')).toEqual({
      type: 'page',
      path: '/search',
      search: '?q=a\\b',
      hash: '#c\\d',
    })
    expect(classifyLink('mailto:a\\b@example.com')).toEqual({ type: 'external' })
  })

  it('classifies the same href by the baseUrl it is given: another origin is external', () => {
    const href = 'https://www.example.com/about'
    expect(classifyLink(href, BASE)).toEqual({ type: 'page', path: '/about', search: '', hash: '' })
    expect(classifyLink(href, 'https://other.example')).toEqual({ type: 'external' })
    expect(classifyLink(href)).toEqual({ type: 'external' })
    // each answer is the caller's own: changing one changes no later answer
    const first = classifyLink('/p/1/') as { path: string }
    first.path = '/changed'
    expect(classifyLink('/p/1/')).toEqual({ type: 'page', path: '/p/1', search: '', hash: '' })
  })
})

describe('isFilePath', () => {
  it.each([
    ['/fileadmin/x', true],
    ['/typo3temp/assets/a.css', true],
    ['/docs/report.pdf', true],
    ['/img/a.WEBP', true],
    ['/', false],
    ['/about', false],
    ['/page.html', false],
    ['/news/version-2.0', false],
    ['/.hidden', false],
  ])('%s -> %s', (path, file) => expect(isFilePath(path)).toBe(file))
})
