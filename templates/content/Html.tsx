/** CType `html`: the editor's HTML, sanitised like all rich text (no scripts, no handlers). No header is shown. */
import { type ContentElementProps, ElementRoot, RichText } from 'typo3-headless-site/runtime'

export default function Html(props: ContentElementProps) {
  return (
    <ElementRoot className="ce ce-html">
      <RichText html={props.bodytext} />
    </ElementRoot>
  )
}
