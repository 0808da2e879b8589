/**
 * Fallback for content types without a template: nothing for visitors; in `site preview --debug` (or with
 * features.debug) with `?debug` the element's data, so editors and developers see what arrived.
 */
import { type ContentElementProps, ElementRoot, useSite } from 'typo3-headless-site/runtime'

export default function DefaultElement({ element, type }: ContentElementProps) {
  const { debug, mode } = useSite()
  if (!debug || mode !== 'preview') return <ElementRoot className="ce ce-unknown" />
  return (
    <ElementRoot className="ce ce-unknown ce-debug">
      <p className="ce-debug__title">{`Unknown content type: ${type}`}</p>
      <pre>{JSON.stringify(element, null, 2)}</pre>
    </ElementRoot>
  )
}
