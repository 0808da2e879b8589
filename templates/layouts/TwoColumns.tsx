/** Backend layout `two_columns`: main content (`colPos0`) and an aside (`colPos1`). */
import { ContentColumn, hasColumn, type LayoutProps } from 'typo3-headless-site/runtime'
import { Breadcrumbs } from '../components/Breadcrumbs.js'
import { PageTitle } from '../components/PageTitle.js'

export default function TwoColumnsLayout({ content, page }: LayoutProps) {
  return (
    <div className="layout layout--two-columns">
      <Breadcrumbs page={page} />
      <PageTitle page={page} />
      <div className="container layout__grid">
        <div className="layout__main">
          <ContentColumn colPos={0} content={content} />
        </div>
        {hasColumn(content, 1) && (
          <aside className="layout__aside">
            <ContentColumn colPos={1} content={content} />
          </aside>
        )}
      </div>
    </div>
  )
}
