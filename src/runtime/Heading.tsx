/**
 * The header of a content element (its `header` fields).
 * Levels: `headerLayout` 1-6 give h1-h6 as the editor chose; 0 ("default") gives
 * `defaultLevel` (h2: layouts do not print the page title, so the one h1 of a page
 * is the element the editor set to layout 1, see templates/components/PageTitle.tsx);
 * 100 ("hidden") renders nothing.
 */
import { createElement } from 'react'
import { cx } from './element.js'
import { SafeLink } from './SafeLink.js'

export const HIDDEN_HEADER_LAYOUT = 100

export interface HeadingProps {
  header?: unknown
  subheader?: unknown
  headerLayout?: unknown
  headerPosition?: unknown
  headerLink?: unknown
  /** Level for `headerLayout` 0 or an unknown value. @default 2 */
  defaultLevel?: number
  className?: string
  /** A content element's props can be spread in whole: `<Heading {...props} />`. */
  [other: string]: unknown
}

/** The heading level of a `headerLayout` value; `null` for hidden. Example: `0` -> 2, `3` -> 3, `100` -> null. */
export function headingLevel(headerLayout: unknown, defaultLevel = 2): number | null {
  const layout = typeof headerLayout === 'string' && headerLayout.trim() !== '' ? Number(headerLayout) : headerLayout
  if (layout === HIDDEN_HEADER_LAYOUT) return null
  return typeof layout === 'number' && Number.isInteger(layout) && layout >= 1 && layout <= 6 ? layout : defaultLevel
}

export function Heading({
  header,
  subheader,
  headerLayout,
  headerPosition,
  headerLink,
  defaultLevel = 2,
  className,
}: HeadingProps) {
  const level = headingLevel(headerLayout, defaultLevel)
  const title = typeof header === 'string' ? header.trim() : ''
  if (level === null || title === '') return null
  const sub = typeof subheader === 'string' ? subheader.trim() : ''
  const position =
    typeof headerPosition === 'string' && /^(left|center|right)$/.test(headerPosition) ? headerPosition : ''
  const hasLink =
    typeof headerLink === 'string' ? headerLink !== '' : typeof headerLink === 'object' && headerLink !== null
  return (
    <div className={cx('ce-header', position && `ce-header--${position}`, className)}>
      {createElement(
        `h${level}`,
        { className: 'ce-headline' },
        hasLink ? <SafeLink href={headerLink}>{title}</SafeLink> : title,
      )}
      {sub && <p className="ce-subheader">{sub}</p>}
    </div>
  )
}
