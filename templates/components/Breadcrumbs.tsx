/** The rootline of a page (the page's `breadcrumbs`), shown below the home level. */
import { type PageData, SafeLink } from 'typo3-headless-site/runtime'
import { useTexts } from '../texts.js'
import { isOn } from './NavList.js'

export function Breadcrumbs({ page }: { page: PageData }) {
  const t = useTexts()
  const entries = (page.breadcrumbs ?? []).filter((entry) => !isOn(entry.spacer))
  if (entries.length < 2) return null
  return (
    <nav aria-label={t.breadcrumbs} className="breadcrumbs container">
      <ol>
        {entries.map((entry, i) => (
          <li key={i}>
            {i === entries.length - 1 ? (
              <span aria-current="page">{entry.title}</span>
            ) : (
              <SafeLink href={entry.link}>{entry.title}</SafeLink>
            )}
          </li>
        ))}
      </ol>
    </nav>
  )
}
