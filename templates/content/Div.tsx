/** CType `div`: a divider. */
import { ElementRoot } from 'site/runtime'

export default function Div() {
  return <ElementRoot as="hr" className="ce ce-div" />
}
