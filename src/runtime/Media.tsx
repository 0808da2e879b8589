/**
 * Files of the API (EXT:headless file references): images with width/height and alt, video and
 * audio players, and a plain link for anything else.
 */

import { MEDIA_DIR } from '../shared/layout.js'
import { isSafeHref } from '../shared/links.js'
import type { FileRef, LocalMedia } from '../shared/types.js'
import { useReportProblem } from './context.js'
import { isRecord } from './element.js'
import { SafeLink } from './SafeLink.js'

const EMBED_MIME_RE = /^video\/(youtube|vimeo)$/

/** The players a `video/youtube` or `video/vimeo` file may be embedded from: https, these hosts, their player paths. */
const EMBED_PLAYERS: Readonly<Record<string, { hosts: readonly string[]; path: string }>> = {
  youtube: { hosts: ['www.youtube.com', 'youtube.com', 'www.youtube-nocookie.com'], path: '/embed/' },
  vimeo: { hosts: ['player.vimeo.com'], path: '/video/' },
}

/**
 * What an embedded player may do in its frame: run its own scripts with its own origin's storage,
 * go fullscreen, open "watch on YouTube" in a new tab. Never navigate this page, submit forms,
 * download or open modal dialogs.
 */
export const EMBED_SANDBOX =
  'allow-scripts allow-same-origin allow-presentation allow-popups allow-popups-to-escape-sandbox'

/**
 * The player URL of a `video/youtube` or `video/vimeo` file, or undefined when it is not one of
 * that provider's players. Example: ('https://player.vimeo.com/video/1', 'video/vimeo')
 * -> the URL; ('https://evil.example/embed/1', 'video/youtube') -> undefined.
 */
function toEmbedUrl(url: string, mimeType: string): string | undefined {
  const provider = EMBED_MIME_RE.exec(mimeType)?.[1]
  const player = provider === undefined ? undefined : EMBED_PLAYERS[provider]
  if (!player) return undefined
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  const plain = parsed.protocol === 'https:' && !parsed.username && !parsed.password && !parsed.port
  return plain && player.hosts.includes(parsed.hostname) && parsed.pathname.startsWith(player.path)
    ? parsed.href
    : undefined
}

/** True for a URL a file may be loaded from: http(s) or a path (never `javascript:`, `data:`, `mailto:`). */
export const isSafeSrc = (url: unknown): url is string => isSafeHref(url) && !/^\s*(mailto|tel):/i.test(url)

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : undefined

const str = (value: unknown): string => (typeof value === 'string' ? value : '')

const dimensionsOf = (props: Record<string, unknown>): { width?: number; height?: number } => {
  const dims = isRecord(props.dimensions) ? props.dimensions : {}
  return { width: positive(dims.width), height: positive(dims.height) }
}

/** The properties a file's type declares as text: another type is not passed on (a number is, as text). */
const TEXT_PROPERTIES = [
  'title',
  'alternative',
  'description',
  'link',
  'mimeType',
  'type',
  'filename',
  'originalUrl',
  'size',
  'extension',
] as const
/** The properties a file's type declares as `{ width, height }`. */
const SIZE_PROPERTIES = ['dimensions', 'cropDimensions'] as const

/**
 * A file's properties, those its type declares with that type (the API's answer is untrusted: an `extension`
 * that is an object would throw in a template calling `toUpperCase()` on it), the others as they are.
 */
export const fileProps = (file: FileRef): NonNullable<FileRef['properties']> => {
  if (!isRecord(file.properties)) return {}
  const props: Record<string, unknown> = { ...file.properties }
  for (const key of TEXT_PROPERTIES) {
    const value = props[key]
    if (typeof value === 'number') props[key] = String(value)
    else if (value !== undefined && value !== null && typeof value !== 'string') delete props[key]
  }
  for (const key of SIZE_PROPERTIES) {
    const value = props[key]
    if (
      value !== undefined &&
      !(isRecord(value) && typeof value.width === 'number' && typeof value.height === 'number')
    )
      delete props[key]
  }
  return props as NonNullable<FileRef['properties']>
}

/** True when a value has the shape of a file with a usable URL. */
export const isFile = (value: unknown): value is FileRef => isRecord(value) && isSafeSrc(value.publicUrl)

/** The MIME type of each variant format a build writes (by extension). */
const VARIANT_TYPES: Readonly<Record<string, string>> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  png: 'image/png',
}
/** A variant base the build writes: `/_site/media/<hash>/<name>-<digest>`; anything else is ignored. */
const VARIANT_BASE_RE = new RegExp(`^/${MEDIA_DIR}/[0-9a-f]{8,64}/[A-Za-z0-9][A-Za-z0-9._-]{0,120}$`)

/**
 * The variants of a file the build took into its output, when they have the shape a build writes
 * (data a CMS could send in their place points nowhere but the site's own media folder).
 */
export function variantsOf(file: FileRef): NonNullable<LocalMedia['variants']> | undefined {
  const local = isRecord(file.local) ? file.local : undefined
  const variants = local && isRecord(local.variants) ? local.variants : undefined
  if (!variants) return undefined
  const { base, widths, formats } = variants
  const ok =
    typeof base === 'string' &&
    VARIANT_BASE_RE.test(base) &&
    Array.isArray(widths) &&
    widths.length > 0 &&
    widths.every((w) => Number.isInteger(w) && w > 0) &&
    Array.isArray(formats) &&
    formats.length > 0 &&
    formats.every((f) => typeof f === 'string' && Object.hasOwn(VARIANT_TYPES, f))
  return ok ? { base, widths, formats } : undefined
}

/** A `srcset` of one format: `/_site/media/h/a-d-400w.avif 400w, …`. */
const srcSetOf = (variants: NonNullable<LocalMedia['variants']>, format: string): string =>
  variants.widths.map((w) => `${variants.base}-${w}w.${format} ${w}w`).join(', ')

/** The image's displayed width for its `sizes` when a template names none: the whole viewport. */
export const DEFAULT_IMAGE_SIZES = '100vw'

export interface ImageProps {
  file: FileRef
  /** Load at once (the first image of a page); lazily otherwise. */
  eager?: boolean
  className?: string
  /**
   * How wide the image is shown, as the `sizes` attribute (`'(min-width: 64rem) 33vw, 100vw'`): the browser picks
   * the variant from it. Only used when the build made variants (`media: 'optimize'`). @default '100vw'
   */
  sizes?: string
}

export function Image({ file, eager = false, className, sizes }: ImageProps) {
  if (!isSafeSrc(file.publicUrl)) return null
  const props = fileProps(file)
  const dims = dimensionsOf(props)
  const local = isRecord(file.local) ? file.local : {}
  const width = dims.width ?? positive(local.width)
  const height = dims.width === undefined ? positive(local.height) : dims.height
  const variants = variantsOf(file)
  const fallback = variants?.formats[variants.formats.length - 1]
  // `sizes` means nothing without a `srcset`: only variants get one
  const shownSizes = variants ? (sizes ?? DEFAULT_IMAGE_SIZES) : undefined
  const img = (
    <img
      src={variants ? `${variants.base}-${variants.widths[variants.widths.length - 1]}w.${fallback}` : file.publicUrl}
      srcSet={variants && fallback ? srcSetOf(variants, fallback) : undefined}
      alt={str(props.alternative)}
      title={str(props.title) || undefined}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      sizes={shownSizes}
      className={className}
    />
  )
  if (variants)
    return (
      <picture>
        {variants.formats.slice(0, -1).map((format) => (
          <source key={format} type={VARIANT_TYPES[format]} srcSet={srcSetOf(variants, format)} sizes={shownSizes} />
        ))}
        {img}
      </picture>
    )
  // React's server renderer emits a <link rel="preload"> before the app markup for every
  // eager <img> outside <picture>; hydration would then meet a node the client does not render.
  return eager ? <picture>{img}</picture> : img
}

/** Any file: image, embedded video (YouTube/Vimeo), video, audio, or a download link. */
export function Media({
  file,
  eager = false,
  className,
  sizes,
}: {
  file: FileRef
  eager?: boolean
  className?: string
  /** An image's `sizes` (see ImageProps). */
  sizes?: string
}) {
  const reportProblem = useReportProblem()
  if (!isSafeSrc(file.publicUrl)) return null
  const props = fileProps(file)
  const mime = str(props.mimeType)
  const type = str(props.type) || mime.split('/')[0] || 'image'
  const label = str(props.title) || str(props.alternative) || str(props.filename) || file.publicUrl
  if (EMBED_MIME_RE.test(mime)) {
    const src = toEmbedUrl(file.publicUrl, mime)
    if (src === undefined) {
      // Any other page in a frame of ours is refused; the visitor gets a plain link to it instead.
      reportProblem(
        `${mime} file not embedded: ${JSON.stringify(file.publicUrl.slice(0, 200))} is not a player URL`,
        'EMBED_REFUSED',
      )
      return (
        <SafeLink href={file.publicUrl} className={className}>
          {label}
        </SafeLink>
      )
    }
    return (
      <iframe
        className={className}
        src={src}
        title={label}
        {...dimensionsOf(props)}
        loading="lazy"
        sandbox={EMBED_SANDBOX}
        allow="fullscreen; picture-in-picture"
        referrerPolicy="strict-origin-when-cross-origin"
      />
    )
  }
  // EXT:headless sends no caption tracks: a player without them is all the data allows.
  if (type === 'video') {
    // biome-ignore lint/a11y/useMediaCaption: no caption source in the CMS data
    return <video className={className} src={file.publicUrl} controls preload="metadata" title={label} />
  }
  if (type === 'audio') {
    // biome-ignore lint/a11y/useMediaCaption: no caption source in the CMS data
    return <audio className={className} src={file.publicUrl} controls preload="metadata" title={label} />
  }
  if (type !== 'image')
    return (
      <SafeLink href={file.publicUrl} className={className}>
        {label}
      </SafeLink>
    )
  const image = <Image file={file} eager={eager} className={className} sizes={sizes} />
  const link = props.link
  return typeof link === 'string' && link !== '' ? <SafeLink href={link}>{image}</SafeLink> : image
}
