/**
 * The site header: skip link, logo, top bar (location, minor navigation, social links,
 * language switcher), main and featured navigation, the consultation call to action,
 * and the page's context menu. `transparent` lays it over the page's first element.
 */
import { cx, SafeLink, useHomePath, useSite, type HeaderProps } from 'site/runtime'
import { ContextMenu } from './components/ContextMenu.js'
import { LanguageSwitcher } from './components/LanguageSwitcher.js'
import { NavList } from './components/NavList.js'
import { useTexts } from './texts.js'

export default function Header({ navigation, transparent, languages }: HeaderProps) {
  const t = useTexts()
  const home = useHomePath()
  const { initialData } = useSite()
  const social = initialData.socialMenu ?? []
  return (
    <header className={cx('site-header', transparent && 'site-header--transparent')}>
      <a className="skip-link" href="#main">
        {t.skipToContent}
      </a>
      <div className="topbar">
        <div className="container topbar__inner">
          <SafeLink href={t.links.headquarters} className="topbar__location">
            <span aria-hidden="true" className="topbar__pin" />
            {t.thereYouCanFindUs}
          </SafeLink>
          {(initialData.minorNavigation ?? []).length > 0 && (
            <nav aria-label={t.secondaryNavigation} className="topbar__nav">
              <NavList entries={initialData.minorNavigation} />
            </nav>
          )}
          {social.length > 0 && (
            <ul className="social" aria-label={t.socialMedia}>
              {social.map((entry, i) => (
                <li key={i}>
                  <SafeLink href={entry.link} target={entry.target || '_blank'} className="social__link">
                    {entry.title || (typeof entry.icon === 'string' ? entry.icon : '')}
                  </SafeLink>
                </li>
              ))}
            </ul>
          )}
          <LanguageSwitcher languages={languages} />
        </div>
      </div>
      <div className="container site-header__main">
        <a href={home} className="site-logo">
          <span className="site-logo__mark" aria-hidden="true" />
          <span className="site-logo__name">{t.siteName}</span>
          <span className="visually-hidden">{` – ${t.goToHome}`}</span>
        </a>
        {navigation.length > 0 && (
          <nav aria-label={t.mainNavigation} className="site-nav">
            <NavList entries={navigation} />
          </nav>
        )}
        <div className="site-header__actions">
          <NavList entries={initialData.featuredNavigation} className="nav--featured" />
          <SafeLink href={t.links.consultation} className="btn btn--primary">
            {t.scheduleConsultation}
          </SafeLink>
        </div>
      </div>
      <ContextMenu />
    </header>
  )
}
