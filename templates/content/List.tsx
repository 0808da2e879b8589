/**
 * CType `list` (a plugin without its own template): the header only; the plugin's data
 * is shown like an unknown element's, in preview with `?debug`.
 */
import { type ContentElementProps, ElementRoot, Heading, useSite } from 'typo3-headless-site/runtime'

export default function List(props: ContentElementProps) {
  const { debug } = useSite()
  return (
    <ElementRoot className="ce ce-list">
      <Heading {...props} />
      {debug && <pre className="ce-debug">{JSON.stringify(props.element, null, 2)}</pre>}
    </ElementRoot>
  )
}
