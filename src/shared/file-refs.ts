/**
 * Pure: a CMS file as the build state names it, so that a file event (TYPO3's `file-updated`, `--only file:…`)
 * finds the pages that show the file. A file on the API's own origin is named by its path (the state is
 * published with the site, the CMS's address need not be; and TYPO3's file messages name the file on the
 * CMS's public origin, which may not be the API's); a file of another host by its whole URL. Neither keeps
 * a query or a fragment (EXT:headless's cache busting appends `?<mtime>`).
 *
 * Examples, with the API at https://cms.example:
 *   'https://cms.example/fileadmin/a.jpg?1700000000' -> '/fileadmin/a.jpg'
 *   'https://cdn.example/a.jpg'                      -> 'https://cdn.example/a.jpg'
 *   '/fileadmin/a.jpg', 'fileadmin/a.jpg'            -> '/fileadmin/a.jpg'
 */

/** Longest file reference kept: a longer one names no file of a CMS. */
const MAX_FILE_REF_LENGTH = 2048

const PLAIN_RE = /^[^\s\u0000-\u001f\u007f-\u009f]+$/u

/** `url` as the state names it, or undefined when it is no http(s) URL or path of a file. */
export function toFileRef(url: string, apiOrigin: string): string | undefined {
  if (url.length > MAX_FILE_REF_LENGTH || !PLAIN_RE.test(url)) return undefined
  let parsed: URL
  try {
    parsed = new URL(url, `${apiOrigin}/`)
  } catch {
    return undefined
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined
  if (parsed.pathname === '/') return undefined
  return parsed.origin === apiOrigin ? parsed.pathname : `${parsed.origin}${parsed.pathname}`
}

/** Whether `value` has the shape of a reference toFileRef makes (read back from an untrusted state). */
export const isFileRef = (value: unknown): value is string =>
  typeof value === 'string' &&
  value.length <= MAX_FILE_REF_LENGTH &&
  PLAIN_RE.test(value) &&
  /^(?:https?:\/\/[^/?#]+)?\/[^?#]+$/.test(value)

/**
 * The references a file event may match (TYPO3's file messages, `--only file:…`): the URL as the event names
 * it, and its path (a TYPO3 file message names the file on the CMS's public origin, which may not be the
 * API's); a path, as it is. Undefined for what is neither.
 * Examples: 'https://www.cms.example/fileadmin/a.jpg' -> ['https://www.cms.example/fileadmin/a.jpg', '/fileadmin/a.jpg'];
 * 'fileadmin/ä.jpg' -> ['/fileadmin/%C3%A4.jpg'].
 */
export function eventFileRefs(value: string): string[] | undefined {
  if (value.length > MAX_FILE_REF_LENGTH || !PLAIN_RE.test(value.trim())) return undefined
  const text = value.trim()
  const absolute = /^https?:\/\//i.test(text)
  if (!absolute && text.startsWith('//')) return undefined
  let url: URL
  try {
    // a path is read against a placeholder origin only to be normalised as the state's paths are (encoded)
    url = new URL(absolute ? text : text.replace(/^\/?/, '/'), 'http://file-event.invalid')
  } catch {
    return undefined
  }
  if (url.pathname === '/') return undefined
  return absolute ? [`${url.origin}${url.pathname}`, url.pathname] : [url.pathname]
}
