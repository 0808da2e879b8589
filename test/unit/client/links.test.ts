import { describe, expect, it } from 'vitest'
import { type AnchorLike, type ClickLike, toClickNavigation, toRoutableUrl } from '../../../src/client/links.js'

const HERE = { href: 'https://site.test/pl/o-nas?x=1' }

function anchor(href: string, attrs: Record<string, string> = {}): AnchorLike {
  return {
    href: new URL(href, HERE.href).href,
    target: attrs.target ?? '',
    hasAttribute: (name) => name in attrs,
    getAttribute: (name) => (name === 'href' ? href : (attrs[name] ?? null)),
  }
}

const click = (over: Partial<ClickLike> = {}): ClickLike => ({
  button: 0,
  metaKey: false,
  ctrlKey: false,
  shiftKey: false,
  altKey: false,
  defaultPrevented: false,
  ...over,
})

describe('link interception rules', () => {
  it('takes over plain clicks on internal page links', () => {
    expect(toClickNavigation(click(), anchor('/de/ueber-uns'), HERE)?.href).toBe('https://site.test/de/ueber-uns')
    expect(toClickNavigation(click(), anchor('https://site.test/about#team'), HERE)?.href).toBe(
      'https://site.test/about#team',
    )
    expect(toClickNavigation(click(), anchor('kontakt'), HERE)?.pathname).toBe('/pl/kontakt')
    expect(toClickNavigation(click(), anchor('/page.html'), HERE)?.pathname).toBe('/page.html')
    expect(toClickNavigation(click(), anchor('/a', { target: '_self' }), HERE)).toBeDefined()
  })

  it.each([
    ['meta', { metaKey: true }],
    ['ctrl', { ctrlKey: true }],
    ['shift', { shiftKey: true }],
    ['alt', { altKey: true }],
    ['middle button', { button: 1 }],
    ['right button', { button: 2 }],
    ['already handled', { defaultPrevented: true }],
  ])('leaves a %s click to the browser', (_name, over) => {
    expect(toClickNavigation(click(over), anchor('/a'), HERE)).toBeUndefined()
  })

  it.each([
    ['target=_blank', anchor('/a', { target: '_blank' })],
    ['a named target', anchor('/a', { target: 'frame1' })],
    ['download', anchor('/a', { download: '' })],
    ['rel=external', anchor('/a', { rel: 'noopener external' })],
    ['another origin', anchor('https://other.test/a')],
    ['another port', anchor('https://site.test:8443/a')],
    ['http on an https page', anchor('http://site.test/a')],
    ['mailto', anchor('mailto:a@b.c')],
    ['tel', anchor('tel:+48123')],
    ['an anchor on this page', anchor('#team')],
    ['a bare #', anchor('#')],
    ['the same page with a hash', anchor('/pl/o-nas?x=1#team')],
    ['a file', anchor('/fileadmin/doc.pdf')],
    ['an engine file', anchor('/_site/data/x.json')],
    ['an empty href', anchor('')],
  ])('leaves %s to the browser', (_name, link) => {
    expect(toRoutableUrl(link, HERE)).toBeUndefined()
  })

  it('handles a hash link to another page, and the same path with another query', () => {
    expect(toRoutableUrl(anchor('/pl/o-nas#team'), HERE)?.href).toBe('https://site.test/pl/o-nas#team')
    expect(toRoutableUrl(anchor('/pl/o-nas?x=2'), HERE)?.search).toBe('?x=2')
  })
})
