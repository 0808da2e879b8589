/**
 * Which file URLs a build takes into its output, and as what. Only the API's origin and `media.hosts`;
 * only names whose extension a static host serves as something a browser does not run (a copied `.html` or
 * `.svg` would run script on the site's own origin): SVG stays a link to the CMS, as in preview.
 */

/** Extensions of raster images: probed, and given variants under `'optimize'`. */
export const RASTER_EXTENSIONS: ReadonlySet<string> = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif'])
/** Extensions of other files copied as they are (downloads keep their file name). */
export const COPIED_EXTENSIONS: ReadonlySet<string> = new Set([
  'pdf',
  'zip',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'odp',
  'csv',
  'txt',
  'mp4',
  'webm',
  'ogg',
  'mp3',
  'm4a',
  'wav',
])

export type FileClass = 'image' | 'file'

export interface MediaPolicy {
  /** 'image' or 'file' for a URL the build takes; undefined for one that stays a link. */
  classify(url: string): FileClass | undefined
}

/** The extension of a URL's last path segment, lower-cased: `https://cms/a/B.JPG?1` -> `jpg`. */
export function extensionOf(pathname: string): string {
  const name = pathname.slice(pathname.lastIndexOf('/') + 1)
  const dot = name.lastIndexOf('.')
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase()
}

export function createMediaPolicy(input: { apiBaseUrl: string; hosts: readonly string[] }): MediaPolicy {
  const apiOrigin = new URL(input.apiBaseUrl).origin
  const hosts = new Set(input.hosts)
  return {
    classify(raw) {
      let url: URL
      try {
        url = new URL(raw)
      } catch {
        return undefined
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
      if (url.username || url.password) return undefined
      if (url.origin !== apiOrigin && !hosts.has(url.hostname.toLowerCase())) return undefined
      const extension = extensionOf(url.pathname)
      if (RASTER_EXTENSIONS.has(extension)) return 'image'
      return COPIED_EXTENSIONS.has(extension) ? 'file' : undefined
    },
  }
}
