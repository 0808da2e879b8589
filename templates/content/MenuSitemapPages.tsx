/** CType `menu_sitemap_pages`. */
import type { ContentElementProps } from 'typo3-headless-site/runtime'
import { SitemapMenu } from '../components/Menu.js'

export default function MenuSitemapPages(props: ContentElementProps) {
  return <SitemapMenu {...props} />
}
