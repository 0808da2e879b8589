/**
 * The site's own wording and fixed links, per locale (en, pl, de). Everything the
 * header, footer and error page say that does not come from the CMS lives here.
 */
import { useLocaleTexts } from 'site/runtime'

export interface SiteTexts {
  siteName: string
  skipToContent: string
  goToHome: string
  thereYouCanFindUs: string
  scheduleConsultation: string
  changeLanguage: string
  preferredLanguage: string
  cancel: string
  mainNavigation: string
  featuredNavigation: string
  menu: string
  closeMenu: string
  secondaryNavigation: string
  socialMedia: string
  pageSections: string
  breadcrumbs: string
  footerNavigation: string
  legal: string
  career: string
  headquarters: string
  privacyPolicy: string
  dataProtectionNotice: string
  notFound: string
  checkHomePage: string
  error: string
  submit: string
  required: string
  downloads: string
  opensInNewWindow: string
  /** Fixed links; the CMS has no field for them. */
  links: {
    consultation: string
    headquarters: string
    career: string
    privacyPolicy: string
    /** Polish pages only. */
    dataProtectionNotice?: string
  }
}

export const TEXTS: Record<'en' | 'pl' | 'de', SiteTexts> = {
  en: {
    siteName: 'Amberline Software',
    skipToContent: 'Skip to content',
    goToHome: 'Go to home page',
    thereYouCanFindUs: 'There you can find us',
    scheduleConsultation: 'Schedule a free consultation',
    changeLanguage: 'Change language',
    preferredLanguage: 'Preferred language',
    cancel: 'Cancel',
    mainNavigation: 'Main navigation',
    featuredNavigation: 'Featured',
    menu: 'Menu',
    closeMenu: 'Close menu',
    secondaryNavigation: 'Secondary navigation',
    socialMedia: 'Social media',
    pageSections: 'On this page',
    breadcrumbs: 'Breadcrumbs',
    footerNavigation: 'Footer navigation',
    legal: 'Legal',
    career: 'Career',
    headquarters: 'Headquarters',
    privacyPolicy: 'Privacy policy',
    dataProtectionNotice: 'Data protection notice',
    notFound: "Unfortunately, the page you're looking for could not be found.",
    checkHomePage: 'Check out our home page.',
    error: 'Error',
    submit: 'Send',
    required: 'required',
    downloads: 'Downloads',
    opensInNewWindow: 'opens in a new window',
    links: { consultation: '/contact', headquarters: '/contact', career: '/careers', privacyPolicy: '/policy' },
  },
  pl: {
    siteName: 'Amberline Software',
    skipToContent: 'Przejdź do treści',
    goToHome: 'Przejdź do strony głównej',
    thereYouCanFindUs: 'Tu nas znajdziesz',
    scheduleConsultation: 'Umów bezpłatną konsultację',
    changeLanguage: 'Zmień język',
    preferredLanguage: 'Preferowany język',
    cancel: 'Anuluj',
    mainNavigation: 'Nawigacja główna',
    featuredNavigation: 'Polecane',
    menu: 'Menu',
    closeMenu: 'Zamknij menu',
    secondaryNavigation: 'Nawigacja dodatkowa',
    socialMedia: 'Media społecznościowe',
    pageSections: 'Na tej stronie',
    breadcrumbs: 'Ścieżka nawigacji',
    footerNavigation: 'Nawigacja w stopce',
    legal: 'Informacje prawne',
    career: 'Kariera',
    headquarters: 'Siedziba',
    privacyPolicy: 'Polityka prywatności',
    dataProtectionNotice: 'Klauzula informacyjna RODO',
    notFound: 'Niestety, nie mogliśmy znaleźć strony, której szukasz.',
    checkHomePage: 'Sprawdź naszą stronę główną.',
    error: 'Błąd',
    submit: 'Wyślij',
    required: 'wymagane',
    downloads: 'Pliki do pobrania',
    opensInNewWindow: 'otwiera się w nowym oknie',
    links: {
      consultation: '/pl/kontakt',
      headquarters: '/pl/kontakt',
      career: '/pl/kariera',
      privacyPolicy: '/pl/polityka-prywatnosci',
      dataProtectionNotice: '/pl/klauzula-informacyjna-rodo',
    },
  },
  de: {
    siteName: 'Amberline Software',
    skipToContent: 'Zum Inhalt springen',
    goToHome: 'Zur Startseite',
    thereYouCanFindUs: 'Hier finden Sie uns',
    scheduleConsultation: 'Kostenlose Beratung vereinbaren',
    changeLanguage: 'Sprache ändern',
    preferredLanguage: 'Bevorzugte Sprache',
    cancel: 'Abbrechen',
    mainNavigation: 'Hauptnavigation',
    featuredNavigation: 'Empfohlen',
    menu: 'Menü',
    closeMenu: 'Menü schließen',
    secondaryNavigation: 'Zusatznavigation',
    socialMedia: 'Soziale Medien',
    pageSections: 'Auf dieser Seite',
    breadcrumbs: 'Brotkrümelnavigation',
    footerNavigation: 'Fußzeilennavigation',
    legal: 'Rechtliches',
    career: 'Karriere',
    headquarters: 'Hauptsitz',
    privacyPolicy: 'Datenschutzerklärung',
    dataProtectionNotice: 'Datenschutzhinweis',
    notFound: 'Leider konnte die gesuchte Seite nicht gefunden werden.',
    checkHomePage: 'Besuchen Sie unsere Startseite.',
    error: 'Fehler',
    submit: 'Senden',
    required: 'Pflichtfeld',
    downloads: 'Downloads',
    opensInNewWindow: 'öffnet in einem neuen Fenster',
    links: { consultation: '/de/kontakt', headquarters: '/de/kontakt', career: '/de/karriere', privacyPolicy: '/de/policy' },
  },
}

/** The texts of the current locale (English when the locale has none). */
export const useTexts = (): SiteTexts => useLocaleTexts(TEXTS)
