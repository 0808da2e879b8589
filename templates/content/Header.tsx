/** CType `header`: only the header fields. */
import { type ContentElementProps, ElementRoot, Heading } from 'typo3-headless-site/runtime'

export default function HeaderElement(props: ContentElementProps) {
  return (
    <ElementRoot className="ce ce-header-only">
      <Heading {...props} />
    </ElementRoot>
  )
}
