/** CType `menu_section`. */
import type { ContentElementProps } from 'typo3-headless-site/runtime'
import { SectionMenu } from '../components/Menu.js'

export default function MenuSection(props: ContentElementProps) {
  return <SectionMenu {...props} />
}
