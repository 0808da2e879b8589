/**
 * The social menu of the top bar: one icon link per network, its name for screen readers (and
 * shown as text when we have no icon for it). Spacers and submenus have no place in a row of
 * icons and are left out; a button label, when set, names the link.
 */
import type { NavEntry } from 'typo3-headless-site/runtime'
import { SafeLink } from 'typo3-headless-site/runtime'
import { Icon, iconOf } from './Icon.js'
import { isOn } from './NavList.js'

export function SocialLinks({ entries, label, newWindow }: { entries: NavEntry[]; label: string; newWindow: string }) {
  const links = entries.filter((entry) => !isOn(entry.spacer) && typeof entry.link === 'string' && entry.link !== '')
  if (links.length === 0) return null
  return (
    <ul className="social" aria-label={label}>
      {links.map((entry, i) => {
        const icon = iconOf(entry)
        const name = entry.buttonLabel || entry.title || (typeof entry.icon === 'string' ? entry.icon : '')
        const target = entry.target || '_blank'
        return (
          <li key={i}>
            <SafeLink href={entry.link} target={target} className="social__link" title={icon ? name : undefined}>
              {icon && <Icon name={icon} />}
              <span className={icon ? 'visually-hidden' : undefined}>{name}</span>
              {target === '_blank' && <span className="visually-hidden">{` (${newWindow})`}</span>}
            </SafeLink>
          </li>
        )
      })}
    </ul>
  )
}
