/**
 * Keeps `<head>`, `<html lang dir>` and the body class in step with the page after a
 * client navigation. The server marks the tags `buildHead()` made with `data-site-head`:
 * marked tags the new page does not have are removed, missing ones added, shared ones
 * stay untouched (no flicker). Unmarked tags (styles, scripts, preconnects) are never touched.
 */

import { HEAD_MARK } from '../runtime/head.js'
import type { HeadTag } from '../shared/contract.js'

const keyOf = (tag: string, attrs: Array<[string, string]>, children: string): string =>
  `${tag}|${attrs
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join('|')}|${children}`

const tagKey = (tag: HeadTag): string => keyOf(tag.tag, Object.entries(tag.attrs), tag.children ?? '')
const elementKey = (el: Element): string =>
  keyOf(
    el.localName,
    Array.from(el.attributes, (a) => [a.name, a.value] as [string, string]),
    el.localName === 'script' ? (el.textContent ?? '') : '',
  )

// Only data scripts (JSON-LD) are managed: an inserted executable script would run.
const isManaged = (tag: HeadTag): boolean =>
  tag.tag !== 'title' && (tag.tag !== 'script' || /json/i.test(tag.attrs.type ?? ''))

export function applyHead(doc: Document, next: readonly HeadTag[]): void {
  doc.title = next.find((tag) => tag.tag === 'title')?.children ?? ''
  const wanted = new Map(next.filter(isManaged).map((tag) => [tagKey(tag), tag]))
  for (const element of Array.from(doc.head.querySelectorAll(`[${HEAD_MARK}]:not(title)`))) {
    const key = elementKey(element)
    if (wanted.has(key)) wanted.delete(key)
    else element.remove()
  }
  const before = doc.head.querySelector('link[rel="stylesheet"], script')
  for (const tag of wanted.values()) {
    const element = doc.createElement(tag.tag)
    for (const [name, value] of Object.entries(tag.attrs)) element.setAttribute(name, value)
    if (tag.children !== undefined) element.textContent = tag.children
    doc.head.insertBefore(element, before)
  }
}

export function applyDocumentAttrs(doc: Document, attrs: { lang: string; dir: string; bodyClass: string }): void {
  const html = doc.documentElement
  if (html.getAttribute('lang') !== attrs.lang) html.setAttribute('lang', attrs.lang)
  if (html.getAttribute('dir') !== attrs.dir) html.setAttribute('dir', attrs.dir)
  if (doc.body.className !== attrs.bodyClass) doc.body.className = attrs.bodyClass
}
