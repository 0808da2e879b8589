/** The gallery of textpic, textmedia and image elements (EXT:headless's `gallery`): rows of columns of figures. */
import type { CSSProperties } from 'react'
import type { FileRef } from '../shared/types.js'
import { cx, isRecord } from './element.js'
import { fileProps, isFile, Media } from './Media.js'

const MAX_COLUMNS = 8 // TYPO3's image columns select offers 1 to 8

const sortedValues = (value: unknown): unknown[] =>
  isRecord(value) || Array.isArray(value)
    ? Object.entries(value)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([, item]) => item)
    : []

/** The files of a gallery, row by row: `rows["1"].columns["1"]` -> `[[file]]`. */
export function galleryRows(gallery: unknown): FileRef[][] {
  if (!isRecord(gallery)) return []
  return sortedValues(gallery.rows)
    .map((row) => (isRecord(row) ? sortedValues(row.columns).filter(isFile) : []))
    .filter((row) => row.length > 0)
}

const word = (value: unknown, allowed: readonly string[], fallback: string): string =>
  typeof value === 'string' && allowed.includes(value) ? value : fallback

export interface GalleryProps {
  gallery: unknown
  /** The first image loads eagerly (first element of a page). */
  eager?: boolean
  className?: string
  /**
   * Each image's `sizes` (see ImageProps). @default one column of the gallery's on wide screens
   * (`(min-width: 48rem) 33vw, 100vw` for three columns), the whole width on narrow ones
   */
  sizes?: string
}

/** The `sizes` of a gallery's images with `columns` columns, shown side by side from 48rem up. */
export const gallerySizes = (columns: number): string =>
  columns > 1 ? `(min-width: 48rem) ${Math.ceil(100 / columns)}vw, 100vw` : '100vw'

export function Gallery({ gallery, eager = false, className, sizes }: GalleryProps) {
  const rows = galleryRows(gallery)
  if (rows.length === 0 || !isRecord(gallery)) return null
  const count = isRecord(gallery.count) ? gallery.count : {}
  const widest = Math.max(...rows.map((row) => row.length))
  const wanted = typeof count.columns === 'number' && count.columns > 0 ? count.columns : widest
  const columns = Math.min(MAX_COLUMNS, Math.max(1, Math.round(wanted)))
  const position = isRecord(gallery.position) ? gallery.position : {}
  const horizontal = word(position.horizontal, ['left', 'center', 'right'], 'center')
  const vertical = word(position.vertical, ['above', 'below', 'intext'], 'above')
  const border = isRecord(gallery.border) && gallery.border.enabled === true
  const style = { '--ce-gallery-columns': String(columns) } as CSSProperties
  return (
    <div
      className={cx(
        'ce-gallery',
        `ce-gallery--${horizontal}`,
        `ce-gallery--${vertical}`,
        border && 'ce-gallery--border',
        className,
      )}
      data-ce-columns={columns}
      style={style}
    >
      {rows.map((row, r) => (
        <div className="ce-gallery__row" key={r}>
          {row.map((file, c) => {
            const caption = fileProps(file).description
            return (
              <figure className="ce-gallery__item" key={c}>
                <Media file={file} eager={eager && r === 0 && c === 0} sizes={sizes ?? gallerySizes(columns)} />
                {typeof caption === 'string' && caption !== '' && <figcaption>{caption}</figcaption>}
              </figure>
            )
          })}
        </div>
      ))}
    </div>
  )
}
