/** CType `menu_abstract`. */
import type { ContentElementProps } from 'typo3-headless-site/runtime'
import { PageMenu } from '../components/Menu.js'

export default function MenuAbstract(props: ContentElementProps) {
  return <PageMenu {...props} withAbstract />
}
