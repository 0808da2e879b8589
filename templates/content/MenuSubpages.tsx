/** CType `menu_subpages`. */
import type { ContentElementProps } from 'typo3-headless-site/runtime'
import { PageMenu } from '../components/Menu.js'

export default function MenuSubpages(props: ContentElementProps) {
  return <PageMenu {...props} />
}
