/** CType `menu_related_pages`. */
import type { ContentElementProps } from 'typo3-headless-site/runtime'
import { PageMenu } from '../components/Menu.js'

export default function MenuRelatedPages(props: ContentElementProps) {
  return <PageMenu {...props} />
}
