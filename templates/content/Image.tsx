/** CType `image`: header, gallery and text. */
import type { ContentElementProps } from 'typo3-headless-site/runtime'
import { MediaText } from '../components/MediaText.js'

export default function ImageElement(props: ContentElementProps) {
  return <MediaText {...props} className="ce-image" />
}
