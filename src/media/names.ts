/**
 * Where a taken file lives in the output: `_site/media/<content hash>/<name>`, its variants beside it as
 * `<stem>-<digest>-<width>w.<ext>`. Names come from the URL, reduced to characters no shell, URL or file
 * system reads specially.
 */
import { createHash } from 'node:crypto'
import { MEDIA_DIR } from '../shared/layout.js'
import { extensionOf } from './policy.js'
import { FORMAT_EXTENSION, type OutputFormat } from './variants.js'

/** Longest file name kept (the extension included). */
const MAX_NAME_LENGTH = 80

/** The content hash naming a file's folder: 20 hex digits of SHA-256 (80 bits). */
export const mediaHash = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 20)

/**
 * A safe file name from a URL's last segment: `https://cms/a/Team%20Photo (1).JPG` -> `Team-Photo-1.jpg`. Its one
 * dot is the extension's: a web server that maps every extension of a name (Apache's mod_mime) would run
 * `shell.php.jpg` as a script, so it becomes `shell-php.jpg`.
 */
export function safeFileName(url: string): string {
  const { pathname } = new URL(url)
  let name = pathname.slice(pathname.lastIndexOf('/') + 1)
  try {
    name = decodeURIComponent(name)
  } catch {}
  // the extension the media policy took the file by, read from the URL as it did: a decoded `%2F` before the dot
  // (`x.svg%2F.png`) would leave the name without one, and a PNG called an image of no format
  const extension = extensionOf(pathname)
  const stem = (extension ? name.slice(0, -(extension.length + 1)) : name)
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME_LENGTH - extension.length - 1)
  return `${stem || 'file'}${extension ? `.${extension}` : ''}`
}

/** The original's path in the output. */
export const originalPath = (hash: string, name: string): string => `${MEDIA_DIR}/${hash}/${name}`

/** What the variants' paths start with: `_site/media/<hash>/<stem>-<digest>`. */
export function variantBase(hash: string, name: string, digest: string): string {
  const dot = name.lastIndexOf('.')
  return `${MEDIA_DIR}/${hash}/${dot > 0 ? name.slice(0, dot) : name}-${digest}`
}

/** One variant's path: (base, 800, 'jpeg') -> `<base>-800w.jpg`. */
export const variantPath = (base: string, width: number, format: OutputFormat): string =>
  `${base}-${width}w.${FORMAT_EXTENSION[format]}`
