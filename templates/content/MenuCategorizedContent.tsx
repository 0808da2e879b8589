/** CType `menu_categorized_content`: content records (`{ uid, header }`) of the chosen categories. */
import { type ContentElementProps, ElementRoot, Heading, isRecord } from 'typo3-headless-site/runtime'

export default function MenuCategorizedContent(props: ContentElementProps) {
  const items = (Array.isArray(props.menu) ? props.menu : [])
    .filter(isRecord)
    .filter((item) => typeof item.header === 'string' && item.header !== '')
  return (
    <ElementRoot className="ce ce-menu">
      <Heading {...props} />
      {items.length > 0 && (
        <ul className="menu-list">
          {items.map((item, i) => (
            <li key={i}>{String(item.header)}</li>
          ))}
        </ul>
      )}
    </ElementRoot>
  )
}
