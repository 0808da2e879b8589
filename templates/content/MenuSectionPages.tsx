/** CType `menu_section_pages`. */
import type { ContentElementProps } from 'typo3-headless-site/runtime'
import { SectionMenu } from '../components/Menu.js'

export default function MenuSectionPages(props: ContentElementProps) {
  return <SectionMenu {...props} />
}
