/** CType `menu_recently_updated`. */
import type { ContentElementProps } from 'typo3-headless-site/runtime'
import { PageMenu } from '../components/Menu.js'

export default function MenuRecentlyUpdated(props: ContentElementProps) {
  return <PageMenu {...props} />
}
