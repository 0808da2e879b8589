/** CType `header`: only the header fields. */
import { ElementRoot, Heading, type ContentElementProps } from 'site/runtime'

export default function HeaderElement(props: ContentElementProps) {
  return (
    <ElementRoot className="ce ce-header-only">
      <Heading {...props} />
    </ElementRoot>
  )
}
