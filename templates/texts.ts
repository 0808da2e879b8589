/**
 * The site's own wording and fixed links: their shape here, one file per locale in
 * texts/ (en.ts, pl.ts, de.ts). Everything the header, footer and error page say that
 * does not come from the CMS lives there. A page's browser code loads only its own
 * locale's file (the engine registers texts/<locale>.ts as the registry's `texts`).
 */
import { useSiteTexts } from 'typo3-headless-site/runtime'

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

/** The texts of the current locale (texts/<locale>.ts; English when the locale has none). */
export const useTexts = (): SiteTexts => useSiteTexts<SiteTexts>()
