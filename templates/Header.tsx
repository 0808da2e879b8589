/**
 * The site header: skip link, logo, main navigation, featured navigation, the consultation
 * call to action, the top bar (location, minor navigation, social links, language switcher)
 * and the page's context menu. `transparent` lays it over the page's first element.
 *
 * Below the desktop breakpoint everything but the logo sits in one menu panel, a popover the
 * Menu button opens (no script needed; without popover support the panel is shown in place).
 * On desktop the panel is laid out as rows: top bar, logo and main navigation, featured
 * navigation and the call to action (styles.css).
 */
import { cx, type HeaderProps, SafeLink, useHomePath, useSite } from 'typo3-headless-site/runtime'
import { ContextMenu } from './components/ContextMenu.js'
import { Icon } from './components/Icon.js'
import { LanguageSwitcher } from './components/LanguageSwitcher.js'
import { NavList } from './components/NavList.js'
import { closeSubmenuOnEscape, closeWhenFocusLeaves } from './components/popover.js'
import { SocialLinks } from './components/SocialLinks.js'
import { useTexts } from './texts.js'

const MENU_ID = 'site-menu'

export default function Header({ navigation, transparent, languages }: HeaderProps) {
  const t = useTexts()
  const home = useHomePath()
  const { initialData } = useSite()
  const social = initialData.socialMenu ?? []
  const featured = initialData.featuredNavigation ?? []
  return (
    <header className={cx('site-header', transparent && 'site-header--transparent')}>
      <a className="skip-link" href="#main">
        {t.skipToContent}
      </a>
      <div className="container site-header__bar">
        <a href={home} className="site-logo">
          <span className="site-logo__mark" aria-hidden="true" />
          <span className="site-logo__name">{t.siteName}</span>
          <span className="visually-hidden">{` – ${t.goToHome}`}</span>
        </a>
        <button type="button" className="menu-toggle" popoverTarget={MENU_ID}>
          <span className="menu-toggle__icon" aria-hidden="true" />
          {t.menu}
        </button>
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: no interaction of its own, it follows the focus leaving it */}
      <div id={MENU_ID} className="site-menu" popover="auto" onBlur={closeWhenFocusLeaves}>
        <div className="site-menu__head">
          <p className="site-menu__title">{t.menu}</p>
          <button type="button" className="site-menu__close" popoverTarget={MENU_ID} popoverTargetAction="hide">
            <span className="visually-hidden">{t.closeMenu}</span>
          </button>
        </div>
        {navigation.length > 0 && (
          <nav aria-label={t.mainNavigation} className="site-nav" ref={closeSubmenuOnEscape}>
            <NavList entries={navigation} />
          </nav>
        )}
        <div className="site-header__sub">
          <div className="container site-header__sub-inner">
            {featured.length > 0 && (
              <nav aria-label={t.featuredNavigation} className="featured-nav">
                <NavList entries={featured} className="nav--featured" levels={1} />
              </nav>
            )}
            <SafeLink href={t.links.consultation} className="btn btn--primary site-header__cta">
              {t.scheduleConsultation}
            </SafeLink>
          </div>
        </div>
        <div className="topbar">
          <div className="container topbar__inner">
            <SafeLink href={t.links.headquarters} className="topbar__location">
              <Icon name="pin" className="topbar__pin" />
              {t.thereYouCanFindUs}
            </SafeLink>
            {(initialData.minorNavigation ?? []).length > 0 && (
              <nav aria-label={t.secondaryNavigation} className="topbar__nav">
                <NavList entries={initialData.minorNavigation} levels={1} />
              </nav>
            )}
            {social.length > 0 && <SocialLinks entries={social} label={t.socialMedia} newWindow={t.opensInNewWindow} />}
            <LanguageSwitcher languages={languages} />
          </div>
        </div>
      </div>
      <ContextMenu />
    </header>
  )
}
