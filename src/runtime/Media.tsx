/**
 * Files of the API (contract 5.2): images with width/height and alt, video and
 * audio players, and a plain link for anything else.
 */

import { isSafeHref } from '../shared/links.js'
import type { FileRef } from '../shared/types.js'
import { isRecord } from './element.js'
import { SafeLink } from './SafeLink.js'

const EMBED_MIME_RE = /^video\/(youtube|vimeo)$/

/** True for a URL a file may be loaded from: http(s) or a path (never `javascript:`, `data:`, `mailto:`). */
export const isSafeSrc = (url: unknown): url is string => isSafeHref(url) && !/^\s*(mailto|tel):/i.test(url)

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : undefined

const str = (value: unknown): string => (typeof value === 'string' ? value : '')

const dimensionsOf = (props: Record<string, unknown>): { width?: number; height?: number } => {
  const dims = isRecord(props.dimensions) ? props.dimensions : {}
  return { width: positive(dims.width), height: positive(dims.height) }
}

/** The file's properties, or an empty object. */
export const fileProps = (file: FileRef): NonNullable<FileRef['properties']> =>
  isRecord(file.properties) ? file.properties : {}

/** True when a value has the shape of a file with a usable URL. */
export const isFile = (value: unknown): value is FileRef => isRecord(value) && isSafeSrc(value.publicUrl)

export interface ImageProps {
  file: FileRef
  /** Load at once (the first image of a page); lazily otherwise. */
  eager?: boolean
  className?: string
  sizes?: string
}

export function Image({ file, eager = false, className, sizes }: ImageProps) {
  if (!isSafeSrc(file.publicUrl)) return null
  const props = fileProps(file)
  const { width, height } = dimensionsOf(props)
  const img = (
    <img
      src={file.publicUrl}
      alt={str(props.alternative)}
      title={str(props.title) || undefined}
      width={width}
      height={height}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      sizes={sizes}
      className={className}
    />
  )
  // React's server renderer emits a <link rel="preload"> before the app markup for every
  // eager <img> outside <picture>; hydration would then meet a node the client does not render.
  return eager ? <picture>{img}</picture> : img
}

/** Any file: image, embedded video (YouTube/Vimeo), video, audio, or a download link. */
export function Media({ file, eager = false, className }: { file: FileRef; eager?: boolean; className?: string }) {
  if (!isSafeSrc(file.publicUrl)) return null
  const props = fileProps(file)
  const mime = str(props.mimeType)
  const type = str(props.type) || mime.split('/')[0] || 'image'
  const label = str(props.title) || str(props.alternative) || str(props.filename) || file.publicUrl
  if (EMBED_MIME_RE.test(mime)) {
    if (!/^https:\/\//i.test(file.publicUrl)) return null
    return (
      <iframe
        className={className}
        src={file.publicUrl}
        title={label}
        {...dimensionsOf(props)}
        loading="lazy"
        allow="fullscreen; picture-in-picture"
        referrerPolicy="strict-origin-when-cross-origin"
      />
    )
  }
  // The API sends no caption tracks (contract 5.2): a player without them is all the data allows.
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
  const image = <Image file={file} eager={eager} className={className} />
  const link = props.link
  return typeof link === 'string' && link !== '' ? <SafeLink href={link}>{image}</SafeLink> : image
}
