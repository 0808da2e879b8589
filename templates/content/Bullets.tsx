/** CType `bullets`: `bulletsType` 0 unordered, 1 ordered, 2 definition list (`[term, definition]` rows). */
import type { ReactNode } from 'react'
import { type ContentElementProps, ElementRoot, Heading } from 'typo3-headless-site/runtime'

const text = (item: unknown): string => (Array.isArray(item) ? item.join(' ') : typeof item === 'string' ? item : '')

export default function Bullets(props: ContentElementProps) {
  const items = Array.isArray(props.bodytext) ? props.bodytext : []
  // a number or its text: Number() of an object from the API runs its own `toString`
  const kind = typeof props.bulletsType === 'object' ? 0 : Number(props.bulletsType)
  let list: ReactNode
  if (kind === 2) {
    list = (
      <dl className="ce-bullets__list">
        {items.filter(Array.isArray).map((row, i) => (
          <div key={i} className="ce-bullets__pair">
            <dt>{text(row[0])}</dt>
            <dd>{text(row.slice(1))}</dd>
          </div>
        ))}
      </dl>
    )
  } else {
    const entries = items.map((item, i) => <li key={i}>{text(item)}</li>)
    list =
      kind === 1 ? <ol className="ce-bullets__list">{entries}</ol> : <ul className="ce-bullets__list">{entries}</ul>
  }
  return (
    <ElementRoot className="ce ce-bullets">
      <Heading {...props} />
      {items.length > 0 && list}
    </ElementRoot>
  )
}
