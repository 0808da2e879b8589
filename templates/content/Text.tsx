/** CType `text`: header and rich text. */
import { type ContentElementProps, ElementRoot, Heading, RichText } from 'typo3-headless-site/runtime'

export default function Text(props: ContentElementProps) {
  return (
    <ElementRoot className="ce ce-text">
      <Heading {...props} />
      <RichText html={props.bodytext} className="ce-bodytext" />
    </ElementRoot>
  )
}
