/** The menu content elements (CTypes `menu_*`): page lists, cards, a sitemap tree, section links. */
import {
  type ContentElementProps,
  cx,
  ElementRoot,
  type FileRef,
  Heading,
  Image,
  isFile,
  isRecord,
  type NavEntry,
  SafeLink,
  useSite,
} from 'typo3-headless-site/runtime'
import { isOn } from './NavList.js'

const entriesOf = (menu: unknown): NavEntry[] =>
  Array.isArray(menu)
    ? menu.filter((e): e is NavEntry => isRecord(e) && typeof e.title === 'string' && !isOn(e.spacer))
    : []

const firstImage = (entry: NavEntry): FileRef | undefined =>
  [entry.media, entry.images].flatMap((list) => (Array.isArray(list) ? list : [])).find(isFile)

/** Pages as a list, or as cards when the element's layout asks for them (`menu-with-cards`). */
export function PageMenu({ withAbstract = false, ...props }: ContentElementProps & { withAbstract?: boolean }) {
  const { page } = useSite()
  const entries = entriesOf(props.menu)
  const cards = typeof props.appearance?.layout === 'string' && props.appearance.layout.includes('card')
  // Cards right below a page's intro are in the first screen, their first image its largest paint: load
  // it at once. Below a hero (which fills the first screen and loads first) they wait as usual.
  const first = page?.content?.colPos0?.[0]
  const firstScreen = typeof props.index === 'number' && props.index <= 1 && first?.appearance?.layout !== 'hero'
  return (
    <ElementRoot className={cx('ce ce-menu', cards && 'ce-menu--cards')}>
      <Heading {...props} />
      {entries.length > 0 && (
        <ul className={cards ? 'cards' : 'menu-list'}>
          {entries.map((entry, i) => {
            const image = cards ? firstImage(entry) : undefined
            const abstract = withAbstract || cards ? (typeof entry.abstract === 'string' ? entry.abstract : '') : ''
            return (
              <li key={i} className={cards ? 'card' : undefined}>
                {image && <Image file={image} className="card__image" eager={i === 0 && firstScreen} />}
                <SafeLink
                  href={entry.link}
                  target={entry.target || undefined}
                  className={cards ? 'card__link' : undefined}
                >
                  {entry.title}
                </SafeLink>
                {abstract && <p className="menu-list__abstract">{abstract}</p>}
              </li>
            )
          })}
        </ul>
      )}
    </ElementRoot>
  )
}

function Tree({ entries, depth }: { entries: NavEntry[]; depth: number }) {
  return (
    <ul className={depth === 0 ? 'sitemap' : 'sitemap__children'}>
      {entries.map((entry, i) => {
        const children = entriesOf(entry.children)
        return (
          <li key={i}>
            <SafeLink href={entry.link}>{entry.title}</SafeLink>
            {children.length > 0 && depth < 6 && <Tree entries={children} depth={depth + 1} />}
          </li>
        )
      })}
    </ul>
  )
}

/** A sitemap: the menu as a nested tree. */
export function SitemapMenu(props: ContentElementProps) {
  const entries = entriesOf(props.menu)
  return (
    <ElementRoot
      as="nav"
      className="ce ce-sitemap"
      aria-label={typeof props.header === 'string' && props.header ? props.header : undefined}
    >
      <Heading {...props} />
      {entries.length > 0 && <Tree entries={entries} depth={0} />}
    </ElementRoot>
  )
}

/** Pages with links to their content sections (`#c<uid>`). */
export function SectionMenu(props: ContentElementProps) {
  const entries = entriesOf(props.menu)
  return (
    <ElementRoot className="ce ce-menu ce-menu--sections">
      <Heading {...props} />
      <ul className="menu-list">
        {entries.map((entry, i) => {
          const sections = Array.isArray(entry.content) ? entry.content.filter(isRecord) : []
          return (
            <li key={i}>
              <SafeLink href={entry.link}>{entry.title}</SafeLink>
              {sections.length > 0 && (
                <ul>
                  {sections.map((section, j) =>
                    typeof section.header === 'string' && section.header !== '' && typeof section.uid === 'number' ? (
                      <li key={j}>
                        <SafeLink href={`${entry.link}#c${section.uid}`}>{section.header}</SafeLink>
                      </li>
                    ) : null,
                  )}
                </ul>
              )}
            </li>
          )
        })}
      </ul>
    </ElementRoot>
  )
}
