/**
 * The site footer: contact block (`footerContactData`), footer navigation, and the
 * fixed per-locale links (career, headquarters, privacy policy; on Polish pages the
 * data-protection notice as well).
 */
import { isRecord, RichText, SafeLink, useSite } from 'typo3-headless-site/runtime'
import { Icon, iconOf } from './components/Icon.js'
import { NavList } from './components/NavList.js'
import { useTexts } from './texts.js'

const str = (value: unknown): string => (typeof value === 'string' ? value : '')

function ContactItem({ item }: { item: unknown }) {
  if (typeof item === 'string') return <li>{item}</li>
  if (!isRecord(item)) return null
  const label = str(item.title) || str(item.label) || str(item.header)
  const value = str(item.value) || str(item.text) || str(item.description)
  const href = item.link ?? item.href
  const text = value || label
  if (!text) return null
  return (
    <li className="footer-contact__item">
      {label && value && <span className="footer-contact__label">{label}</span>}
      {href ? (
        <SafeLink href={href} className="footer-contact__link">
          {/* A contact link that is neither a phone number nor an e-mail address is the way to the office. */}
          <Icon name={iconOf({ link: href }) ?? 'pin'} className="footer-contact__icon" />
          {text}
        </SafeLink>
      ) : (
        <span>{text}</span>
      )}
    </li>
  )
}

export default function Footer() {
  const t = useTexts()
  const { initialData } = useSite()
  const contact = initialData.footerContactData?.content
  const items = Array.isArray(contact?.items) ? contact.items : []
  const title = str(contact?.header)
  const legal = [
    { href: t.links.career, label: t.career },
    { href: t.links.headquarters, label: t.headquarters },
    { href: t.links.privacyPolicy, label: t.privacyPolicy },
    ...(t.links.dataProtectionNotice ? [{ href: t.links.dataProtectionNotice, label: t.dataProtectionNotice }] : []),
  ]
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        {contact && (title || str(contact.bodytext) || items.length > 0) && (
          <section className="footer-contact" aria-label={title || undefined}>
            {title && <h2 className="footer-contact__title">{title}</h2>}
            <RichText html={contact.bodytext} className="footer-contact__text" />
            {items.length > 0 && (
              <ul className="footer-contact__items">
                {items.map((item, i) => (
                  <ContactItem key={i} item={item} />
                ))}
              </ul>
            )}
          </section>
        )}
        {(initialData.footerNavigation ?? []).length > 0 && (
          <nav aria-label={t.footerNavigation} className="footer-nav">
            <NavList entries={initialData.footerNavigation} levels={2} />
          </nav>
        )}
      </div>
      <div className="container site-footer__legal">
        <p className="site-footer__copy">{`© ${t.siteName}`}</p>
        <nav aria-label={t.legal}>
          <ul className="legal-links">
            {legal.map((link) => (
              <li key={link.href}>
                <a href={link.href}>{link.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  )
}
