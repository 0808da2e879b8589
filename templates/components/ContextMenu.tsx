/** The page's context menu (project-specific): a bar under the header with in-page links and icon buttons. */
import { isRecord, linkText, SafeLink, useSite } from 'typo3-headless-site/runtime'
import { useTexts } from '../texts.js'
import { Icon, iconOf } from './Icon.js'

export function ContextMenu() {
  const { page } = useSite()
  const t = useTexts()
  const menu = page?.contextMenu
  if (!menu) return null
  const navigation = (menu.navigation ?? []).filter(
    (entry) => typeof entry.title === 'string' && entry.title.trim() !== '',
  )
  const icons = menu.iconButtons ?? []
  const extra = isRecord(menu.additionalLink) ? menu.additionalLink : undefined
  const extraHref = extra ? (typeof extra.href === 'string' ? extra : extra.link) : undefined
  const extraText = linkText(extra)
  if (navigation.length === 0 && icons.length === 0 && !extraText) return null
  return (
    <div className="context-bar">
      <div className="container context-bar__inner">
        {navigation.length > 0 && (
          <nav aria-label={t.pageSections} className="context-bar__nav">
            <ul>
              {navigation.map((entry, i) => (
                <li key={i}>
                  <SafeLink href={entry.link} target={entry.target || undefined}>
                    {entry.title}
                  </SafeLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
        {extraText && (
          <SafeLink href={extraHref} className="context-bar__link">
            {extraText}
          </SafeLink>
        )}
        {icons.length > 0 && (
          <div className="context-bar__icons">
            {menu.iconButtonsText && <span className="context-bar__icons-text">{menu.iconButtonsText}</span>}
            <ul>
              {icons.map((button, i) => {
                // one of the sprite's names: a class token as it is
                const icon = iconOf(button) ?? 'link'
                const label = button.title || (typeof button.icon === 'string' ? button.icon : '')
                return (
                  <li key={i}>
                    <SafeLink
                      href={button.link}
                      target={button.target || undefined}
                      className={`icon-button icon-button--${icon}`}
                      aria-label={label || undefined}
                      title={label || undefined}
                    >
                      <Icon name={icon} />
                    </SafeLink>
                  </li>
                )
              })}
            </ul>
          </div>
        )}
      </div>
    </div>
  )
}
