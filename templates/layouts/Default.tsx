/** Backend layout `default` (and the fallback for unknown ones): one column, `colPos0`. */
import { ContentColumn, type LayoutProps } from 'typo3-headless-site/runtime'
import { Breadcrumbs } from '../components/Breadcrumbs.js'
import { PageTitle } from '../components/PageTitle.js'

export default function DefaultLayout({ content, page }: LayoutProps) {
  return (
    <div className="layout layout--default">
      <Breadcrumbs page={page} />
      <PageTitle page={page} />
      <ContentColumn colPos={0} content={content} />
    </div>
  )
}
