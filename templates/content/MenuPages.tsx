/** CType `menu_pages`. */
import type { ContentElementProps } from 'site/runtime'
import { PageMenu } from '../components/Menu.js'

export default function MenuPages(props: ContentElementProps) {
  return <PageMenu {...props} />
}
