/**
 * The language switcher: the page's own language entries, each linking to this page's
 * translation. A popover (no script needed); older browsers show it on focus (styles.css).
 */
import { type ToggleEvent, useRef } from 'react'
import { classifyLink, type LanguageEntry, SafeLink, useSite } from 'typo3-headless-site/runtime'
import { useTexts } from '../texts.js'
import { isOn } from './NavList.js'
import { closeWhenFocusLeaves } from './popover.js'

const PANEL_ID = 'language-switcher'

export function LanguageSwitcher({ languages }: { languages: LanguageEntry[] }) {
  const t = useTexts()
  const { locale, path, site } = useSite()
  const toggle = useRef<HTMLButtonElement>(null)
  if (languages.length < 2) return null
  const lang = (locale.split('-')[0] ?? locale).toLowerCase()
  const current =
    languages.find((l) => l.twoLetterIsoCode.toLowerCase() === lang) ?? languages.find((l) => isOn(l.active))
  // the current language's link is this page only when the page has its own entries: the site-wide ones (a page
  // without `i18n`) lead to the locale's home, the current language rather than the current page
  const isThisPage = (link: string) => {
    const kind = classifyLink(link, site.baseUrl)
    return kind.type === 'page' && kind.path === path
  }
  // Closed with the focus in it (Escape, Cancel), the panel gives the focus back to its button: in the phone menu it
  // is a popover in a popover, which the browser leaves with the focus on nothing.
  const refocus = (event: ToggleEvent<HTMLDivElement>) => {
    if (event.newState === 'closed' && event.currentTarget.contains(document.activeElement)) toggle.current?.focus()
  }
  return (
    <div className="lang">
      <button ref={toggle} type="button" className="lang__toggle" popoverTarget={PANEL_ID}>
        <span className="visually-hidden">{`${t.changeLanguage}: `}</span>
        <span>{(current?.twoLetterIsoCode ?? lang).toUpperCase()}</span>
      </button>
      <div
        id={PANEL_ID}
        className="lang__panel"
        popover="auto"
        role="dialog"
        aria-labelledby={`${PANEL_ID}-title`}
        onBeforeToggle={refocus}
        onBlur={closeWhenFocusLeaves}
      >
        <p id={`${PANEL_ID}-title`} className="lang__title">
          {t.preferredLanguage}
        </p>
        <ul className="lang__list">
          {languages.map((entry) => (
            <li key={entry.languageId + entry.twoLetterIsoCode}>
              {isOn(entry.available) ? (
                <SafeLink
                  href={entry.link}
                  hrefLang={entry.twoLetterIsoCode}
                  lang={entry.twoLetterIsoCode}
                  className="lang__link"
                  aria-current={entry === current ? (isThisPage(entry.link) ? 'page' : 'true') : undefined}
                >
                  {entry.navigationTitle}
                </SafeLink>
              ) : (
                <span className="lang__link lang__link--unavailable" lang={entry.twoLetterIsoCode} aria-disabled="true">
                  {entry.navigationTitle}
                </span>
              )}
            </li>
          ))}
        </ul>
        <button type="button" className="lang__cancel" popoverTarget={PANEL_ID} popoverTargetAction="hide">
          {t.cancel}
        </button>
      </div>
    </div>
  )
}
