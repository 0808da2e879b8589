/** Navigation entries as nested lists: submenus open on hover and keyboard focus, no script needed. */
import { cx, SafeLink, type NavEntry } from 'site/runtime'
import { useTexts } from '../texts.js'

export const isOn = (flag: unknown): boolean => flag === true || flag === 1 || flag === '1'

function NavItem({ entry, depth }: { entry: NavEntry; depth: number }) {
  const t = useTexts()
  const children = Array.isArray(entry.children) ? entry.children : []
  if (isOn(entry.spacer)) {
    return (
      <li className="nav__spacer">
        <span>{entry.title}</span>
      </li>
    )
  }
  const newWindow = entry.target === '_blank'
  const label = entry.buttonLabel || entry.title
  return (
    <li className={cx('nav__item', children.length > 0 && 'nav__item--parent', isOn(entry.active) && 'is-active')}>
      <SafeLink
        href={entry.link}
        target={entry.target || undefined}
        className={entry.buttonLabel ? 'btn btn--primary nav__button' : 'nav__link'}
        aria-current={isOn(entry.current) ? 'page' : undefined}
      >
        {label}
        {newWindow && <span className="visually-hidden">{` (${t.opensInNewWindow})`}</span>}
      </SafeLink>
      {children.length > 0 && depth < 3 && <NavList entries={children} className="nav__submenu" depth={depth + 1} />}
    </li>
  )
}

export interface NavListProps {
  entries: NavEntry[] | undefined
  className?: string
  depth?: number
}

export function NavList({ entries, className, depth = 0 }: NavListProps) {
  if (!entries || entries.length === 0) return null
  return (
    <ul className={cx('nav', className)}>
      {entries.map((entry, i) => (
        <NavItem key={`${entry.link}-${i}`} entry={entry} depth={depth} />
      ))}
    </ul>
  )
}
