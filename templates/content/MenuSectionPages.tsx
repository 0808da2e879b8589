/** CType `menu_section_pages`. */
import type { ContentElementProps } from 'site/runtime'
import { SectionMenu } from '../components/Menu.js'

export default function MenuSectionPages(props: ContentElementProps) {
  return <SectionMenu {...props} />
}
