/**
 * The one HTML sanitiser: CMS rich text (bodytext) keeps its usual tags and loses
 * scripts, styles, frames, event handlers and every URL scheme but http(s), mailto and tel.
 */
import sanitizeHtml from 'sanitize-html'
import { isSafeContentHref } from '../shared/links.js'

const RICH_TEXT_TAGS = [
  'p',
  'br',
  'strong',
  'em',
  'b',
  'i',
  'u',
  's',
  'small',
  'a',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'table',
  'caption',
  'colgroup',
  'col',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'img',
  'span',
  'div',
  'figure',
  'figcaption',
  'code',
  'pre',
  'hr',
  'sup',
  'sub',
  'abbr',
]

// No `id` or `name` anywhere: CMS markup must not shadow the app's own ids (`__SITE_BOOT__`, `main`).
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: RICH_TEXT_TAGS,
  allowedAttributes: {
    '*': ['class', 'title', 'lang', 'dir'],
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    th: ['scope', 'colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    abbr: ['title'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  disallowedTagsMode: 'discard',
  // An image whose source was refused shows nothing: drop it.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
}

const DANGEROUS_TAGS = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'form',
  'meta',
  'link',
  'svg',
  'math',
])
/**
 * Deepest nesting of rich text that is sanitised. The parser keeps its open tags in a list it inserts at
 * the front of, so its work grows with the square of the depth: 200,000 nested `<div>` (1.2 MB) took 12 s,
 * and held every other preview request. No editor nests a text this deep; one that does is removed.
 */
export const MAX_RICH_TEXT_DEPTH = 256
// Tags that hold no content, and tags that a sibling closes (`<p>`, `<li>`, `<td>`…): neither adds depth.
const NO_DEPTH_TAGS = new Set(
  'area base br col embed hr img input link meta source track wbr p li dt dd tr td th option thead tbody tfoot'.split(
    ' ',
  ),
)
const TAG_RE = /<(\/?)([a-zA-Z][^\s/>]*)[^>]*?(\/?)>/g

/**
 * Whether `html` nests deeper than MAX_RICH_TEXT_DEPTH, counting open and close tags in one pass. No tag starts
 * after the last `>`: scanning past it, each `<` there (`<a <a <a…`: 600 KB took 40 s) would search to the end.
 */
function nestsTooDeep(html: string): boolean {
  let depth = 0
  for (const [, closing, name, selfClosing] of html.slice(0, html.lastIndexOf('>') + 1).matchAll(TAG_RE)) {
    if (selfClosing || NO_DEPTH_TAGS.has(name!.toLowerCase())) continue
    if (closing) depth = Math.max(0, depth - 1)
    else if (++depth > MAX_RICH_TEXT_DEPTH) return true
  }
  return false
}

// Targets that keep the link in this window; any other (`_blank`, `_BLANK`, a window's name) opens one that
// could steer this page through `window.opener`, and browsers imply noopener for `_blank` alone.
const SAME_WINDOW_TARGETS = new Set(['', '_self', '_parent', '_top'])

const shorten = (text: string) => `"${text.length > 60 ? `${text.slice(0, 60)}…` : text}"`

type UnsafeKind = 'UNSAFE_LINK' | 'UNSAFE_MARKUP'

/** A text sanitised once: the HTML and what was reported removing things from it, in order. */
interface Sanitised {
  html: string
  reports: ReadonlyArray<readonly [what: string, kind: UnsafeKind]>
}

/**
 * Sanitises CMS rich text; `report` hears of every dangerous thing removed (for the build report),
 * on every call, a repeated text included.
 * Example: `<p onclick="x()">Hi<script>x()</script></p>` -> `<p>Hi</p>`.
 */
export function sanitizeRichText(html: string, report: (what: string, kind: UnsafeKind) => void = () => {}): string {
  if (html === '') return ''
  const entry = sanitise(html)
  for (const [what, kind] of entry.reports) report(what, kind)
  return entry.html
}

function sanitise(html: string): Sanitised {
  if (nestsTooDeep(html))
    return {
      html: '',
      reports: [[`rich text nested deeper than ${MAX_RICH_TEXT_DEPTH} levels removed`, 'UNSAFE_MARKUP']],
    }
  const reports: Array<readonly [string, UnsafeKind]> = []
  const report = (what: string, kind: UnsafeKind) => reports.push([what, kind])
  const checkUrl = (tag: string, attr: string, attribs: Record<string, string>) => {
    const value = attribs[attr]
    if (value === undefined || (isSafeContentHref(value) && (tag !== 'img' || /^https?:/i.test(value.trim())))) return
    report(`unsafe ${tag === 'img' ? 'image source' : 'link'} ${shorten(value)} removed`, 'UNSAFE_LINK')
    delete attribs[attr]
  }
  const clean = sanitizeHtml(html, {
    ...OPTIONS,
    onOpenTag: (tagName, attribs) => {
      if (DANGEROUS_TAGS.has(tagName)) report(`<${tagName}> removed`, 'UNSAFE_MARKUP')
      const handlers = Object.keys(attribs).filter((name) => /^on/i.test(name))
      if (handlers.length) report(`event handler ${handlers.join(', ')} on <${tagName}> removed`, 'UNSAFE_MARKUP')
    },
    transformTags: {
      // The page has its own structure; a rich-text h1 would compete with the page's heading.
      h1: 'h2',
      img: (tagName, attribs) => {
        checkUrl('img', 'src', attribs)
        return { tagName, attribs }
      },
      a: (tagName, attribs) => {
        checkUrl('a', 'href', attribs)
        if (SAME_WINDOW_TARGETS.has((attribs.target ?? '').trim().toLowerCase())) return { tagName, attribs }
        const rel = new Set((attribs.rel ?? '').split(/\s+/).filter(Boolean))
        rel.add('noopener')
        return { tagName, attribs: { ...attribs, rel: [...rel].join(' ') } }
      },
    },
  })
  return { html: clean, reports }
}
