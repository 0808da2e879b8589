import { SiteError } from '../errors.js'

/** A redirect target the server may send in `Location`: an internal path or an http(s) URL. */
export function checkRedirectTarget(to: string): string | undefined {
  if (/[\u0000-\u0020\u007f\\]/.test(to)) return undefined
  if (to.startsWith('/') && !to.startsWith('//')) return to
  if (!/^https?:\/\/[^/]/i.test(to)) return undefined
  try {
    new URL(to)
    return to
  } catch {
    return undefined
  }
}

export const unsafeRedirect = (to: string): SiteError =>
  new SiteError('API_BAD_RESPONSE', `Refused a redirect to an unsafe target: ${JSON.stringify(to.slice(0, 200))}`, {
    status: 502,
  })
