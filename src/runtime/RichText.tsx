/** HTML from the CMS (bodytext), already sanitised by src/render/prepare.ts at the trust boundary. */
import { createElement } from 'react'

export interface RichTextProps {
  html: unknown
  className?: string
  as?: 'div' | 'section' | 'span'
}

/**
 * Renders `html` as HTML, nothing for an empty or non-string value. It cleans nothing itself: give it a `bodytext`
 * (the only field the build sanitises), never another field of the CMS.
 */
export function RichText({ html, className, as = 'div' }: RichTextProps) {
  if (typeof html !== 'string' || html.trim() === '') return null
  return createElement(as, { className, dangerouslySetInnerHTML: { __html: html } })
}
