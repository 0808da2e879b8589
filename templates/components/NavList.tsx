/** Navigation entries as nested lists: submenus open on hover and keyboard focus, no script needed. */
import type { ReactNode } from 'react'
import { cx, type NavEntry, SafeLink } from 'typo3-headless-site/runtime'
import { useTexts } from '../texts.js'

export const isOn = (flag: unknown): boolean => flag === true || flag === 1 || flag === '1'

/** Levels the header's main navigation shows (deeper entries are reached from their parents' pages). */
const MAX_LEVELS = 4

function NavItem({ entry, depth, levels }: { entry: NavEntry; depth: number; levels: number }) {
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
  const submenu = children.length > 0 && depth < levels - 1
  // A leaf with a button label is a button; a parent keeps its title and offers the button
  // label as the last link of its submenu ("See all services"), or drops it where its
  // submenu is not shown.
  const button = entry.buttonLabel && children.length === 0 ? entry.buttonLabel : ''
  const overview = entry.buttonLabel && submenu ? entry.buttonLabel : ''
  const external = newWindow && <span className="visually-hidden">{` (${t.opensInNewWindow})`}</span>
  return (
    <li className={cx('nav__item', submenu && 'nav__item--parent', isOn(entry.active) && 'is-active')}>
      <SafeLink
        href={entry.link}
        target={entry.target || undefined}
        className={button ? 'btn btn--secondary nav__button' : 'nav__link'}
        aria-current={isOn(entry.current) ? 'page' : undefined}
      >
        {button || entry.title}
        {external}
      </SafeLink>
      {submenu && (
        <NavList entries={children} className="nav__submenu" depth={depth + 1} levels={levels}>
          {overview && (
            <li className="nav__item nav__item--overview">
              <SafeLink href={entry.link} target={entry.target || undefined} className="nav__link nav__overview">
                {overview}
                {external}
              </SafeLink>
            </li>
          )}
        </NavList>
      )}
    </li>
  )
}

export interface NavListProps {
  entries: NavEntry[] | undefined
  className?: string
  depth?: number
  /** How many levels of children to show; 1 shows the entries alone. @default 4 */
  levels?: number
  /** Extra items after the entries. */
  children?: ReactNode
}

export function NavList({ entries, className, depth = 0, levels = MAX_LEVELS, children }: NavListProps) {
  if (!entries || entries.length === 0) return null
  return (
    <ul className={cx('nav', className)}>
      {entries.map((entry, i) => (
        <NavItem key={`${entry.link}-${i}`} entry={entry} depth={depth} levels={levels} />
      ))}
      {children}
    </ul>
  )
}
