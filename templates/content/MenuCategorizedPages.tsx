/** CType `menu_categorized_pages`. */
import type { ContentElementProps } from 'typo3-headless-site/runtime'
import { PageMenu } from '../components/Menu.js'

export default function MenuCategorizedPages(props: ContentElementProps) {
  return <PageMenu {...props} withAbstract />
}
