/** CType `menu_section`. */
import type { ContentElementProps } from 'site/runtime'
import { SectionMenu } from '../components/Menu.js'

export default function MenuSection(props: ContentElementProps) {
  return <SectionMenu {...props} />
}
