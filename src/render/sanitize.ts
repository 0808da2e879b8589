/**
 * The one HTML sanitiser: CMS rich text (bodytext) keeps its usual tags and loses
 * scripts, styles, frames, event handlers and every URL scheme but http(s), mailto and tel.
 */
import sanitizeHtml from 'sanitize-html'

const RICH_TEXT_TAGS = [
  'p', 'br', 'strong', 'em', 'b', 'i', 'u', 's', 'small', 'a', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'table', 'caption', 'colgroup', 'col', 'thead', 'tbody',
  'tfoot', 'tr', 'th', 'td', 'img', 'span', 'div', 'figure', 'figcaption', 'code', 'pre', 'hr', 'sup',
  'sub', 'abbr',
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
  transformTags: {
    // The page has its own structure; a rich-text h1 would compete with the page's heading.
    h1: 'h2',
    a: (tagName, attribs) => {
      if (attribs.target !== '_blank') return { tagName, attribs }
      const rel = new Set((attribs.rel ?? '').split(/\s+/).filter(Boolean))
      rel.add('noopener')
      return { tagName, attribs: { ...attribs, rel: [...rel].join(' ') } }
    },
  },
}

/** Sanitises CMS rich text. Example: `<p onclick="x()">Hi<script>x()</script></p>` -> `<p>Hi</p>`. */
export function sanitizeRichText(html: string): string {
  return html === '' ? '' : sanitizeHtml(html, OPTIONS)
}
