/** A column of content elements (`colPos<n>`), each through ContentElement. */
import type { PageContent } from '../shared/types.js'
import { ContentElement } from './ContentElement.js'
import { useSite } from './context.js'
import { isRecord } from './element.js'

const keyOf = (element: unknown, index: number): string =>
  `${isRecord(element) && typeof element.id === 'number' ? element.id : 'x'}-${index}`

/** Renders a list of content elements; anything that is not a list renders nothing. */
export function Column({ elements }: { elements: unknown }) {
  if (!Array.isArray(elements)) return null
  return (
    <>
      {elements.map((element, index) => (
        <ContentElement key={keyOf(element, index)} element={element} index={index} />
      ))}
    </>
  )
}

export interface ContentColumnProps {
  /** Column number: `0` renders `content.colPos0`. */
  colPos: number
  /** The page's columns; the current page's by default. */
  content?: PageContent
}

/** Renders one column of the page: `<ContentColumn colPos={1} />`. */
export function ContentColumn({ colPos, content }: ContentColumnProps) {
  const { page } = useSite()
  const columns = content ?? page?.content
  return <Column elements={isRecord(columns) ? columns[`colPos${colPos}`] : undefined} />
}

/** True when the column has at least one element (e.g. to leave out an empty aside). */
export function hasColumn(content: PageContent | undefined, colPos: number): boolean {
  const column = content?.[`colPos${colPos}`]
  return Array.isArray(column) && column.length > 0
}
