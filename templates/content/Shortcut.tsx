/** CType `shortcut`: the referenced records, each rendered as its own content element. */
import { Column, type ContentElementProps, ElementRoot } from 'typo3-headless-site/runtime'

export default function Shortcut(props: ContentElementProps) {
  return (
    <ElementRoot className="ce ce-shortcut">
      <Column elements={props.shortcut} />
    </ElementRoot>
  )
}
