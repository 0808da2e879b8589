/** CType `div`: a divider. */
import { ElementRoot } from 'typo3-headless-site/runtime'

export default function Div() {
  return <ElementRoot as="hr" className="ce ce-div" />
}
