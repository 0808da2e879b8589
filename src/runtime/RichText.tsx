/** HTML from the CMS (bodytext), already sanitised by src/render/prepare.ts at the trust boundary. */
import { createElement } from 'react'

export interface RichTextProps {
  html: unknown
  className?: string
  as?: 'div' | 'section' | 'span'
}

/** Renders nothing for an empty or non-string value. */
export function RichText({ html, className, as = 'div' }: RichTextProps) {
  if (typeof html !== 'string' || html.trim() === '') return null
  return createElement(as, { className, dangerouslySetInnerHTML: { __html: html } })
}
