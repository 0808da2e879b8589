/** CType `menu_sitemap`. */
import type { ContentElementProps } from 'typo3-headless-site/runtime'
import { SitemapMenu } from '../components/Menu.js'

export default function MenuSitemap(props: ContentElementProps) {
  return <SitemapMenu {...props} />
}
