import type { ResolvedSite } from '../config/types.js'
import type { PublicSiteInfo } from '../shared/contract.js'

/** What the browser may know about a site: never API origin, headers or credentials. */
export const toPublicSiteInfo = (site: ResolvedSite): PublicSiteInfo => ({
  baseUrl: site.baseUrl,
  i18n: { default: site.i18n.default, locales: [...site.i18n.locales] },
  gtmId: site.tracking.gtmId,
  consentHost: site.tracking.consentHost,
  i18nMiddleware: site.features.i18nMiddleware,
})
