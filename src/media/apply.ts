/**
 * In the render worker, after the page was prepared: each file the build took points at its copy
 * (`publicUrl`, and `local` with its size and variants); og:image and twitter:image at the copy's absolute
 * URL on `baseUrl`. A file the build could not take fails the page, naming the element that shows it.
 * Changes the prepared page in place (the job's own data).
 */
import type { MediaFileFailureKind } from '../errors.js'
import { MAX_DATA_DEPTH } from '../shared/constants.js'
import type { ContentElement, FileRef, PageData } from '../shared/types.js'
import { isRecord, ownValue } from '../shared/values.js'
import type { MediaMap } from './types.js'

export interface MediaFailure {
  kind: MediaFileFailureKind
  reason: string
  elementUid?: number
}

/**
 * Where a page shows each file whose variants the build encodes: the content element's uid (undefined for a file
 * of the page's own), for a failure the encoder finds once the page is rendered (service.ts, `rendered`).
 */
export type ShownIn = Map<string, number | undefined>

interface PointOptions {
  media: MediaMap
  baseUrl: string | undefined
  absolute: boolean
  elementUid?: number
  shownIn?: ShownIn
}

/**
 * Points the files found in `value` at their copies: each object's `publicUrl` (and its `local`), or with
 * `absolute`, the copy's absolute URL on `baseUrl` only. `elementUid`: the content element `value` is of.
 */
function pointAtCopies(value: unknown, options: PointOptions, depth = 0): MediaFailure | undefined {
  if (depth > MAX_DATA_DEPTH || typeof value !== 'object' || value === null) return undefined
  if (Array.isArray(value)) {
    for (const item of value) {
      const failure = pointAtCopies(item, options, depth + 1)
      if (failure) return failure
    }
    return undefined
  }
  const { media, baseUrl, absolute, elementUid, shownIn } = options
  const record = value as Record<string, unknown>
  if (typeof record.publicUrl === 'string') {
    const answer = ownValue(media, record.publicUrl)
    if (answer) {
      if ('failed' in answer)
        return { kind: answer.failed, reason: answer.reason, ...(elementUid === undefined ? {} : { elementUid }) }
      if (absolute) {
        if (baseUrl !== undefined) record.publicUrl = `${baseUrl}${answer.url}`
      } else {
        if (answer.local.variants && shownIn && !shownIn.has(record.publicUrl))
          shownIn.set(record.publicUrl, elementUid)
        record.publicUrl = answer.url
        ;(record as unknown as FileRef).local = answer.local
      }
    } else if (!absolute) delete record.local
  }
  for (const key in record) {
    if (key === 'publicUrl' || key === 'local') continue
    const child = record[key]
    // a shortcut's elements are elements of their own: what is wrong in one is wrong there
    const failure =
      key === 'shortcut' && Array.isArray(child)
        ? pointElementsAtCopies(child as ContentElement[], options, depth + 1)
        : pointAtCopies(child, key === 'shortcut' ? { ...options, elementUid: undefined } : options, depth + 1)
    if (failure) return failure
  }
  return undefined
}

function pointElementsAtCopies(
  elements: readonly ContentElement[],
  options: Omit<PointOptions, 'absolute' | 'elementUid'>,
  depth: number,
): MediaFailure | undefined {
  for (const element of elements) {
    if (!isRecord(element)) continue
    const failure = pointAtCopies(element.content, { ...options, absolute: false, elementUid: element.id }, depth + 1)
    if (failure) return failure
  }
  return undefined
}

/**
 * Points the page's files at their copies; the first file the build could not take, when there is one. `shownIn`
 * is filled with where the page shows each file whose variants are encoded.
 */
export function applyMedia(
  page: PageData,
  media: MediaMap,
  baseUrl: string | undefined,
  shownIn?: ShownIn,
): MediaFailure | undefined {
  // the seo block's share image tags (they replace meta's): the copy's absolute URL as well
  for (const item of page.seo?.meta ?? []) {
    const tag = item.property ?? item.name
    const answer =
      (tag === 'og:image' || tag === 'twitter:image') && baseUrl !== undefined
        ? ownValue(media, item.content)
        : undefined
    if (answer && 'failed' in answer) return { kind: answer.failed, reason: answer.reason }
    if (answer) item.content = `${baseUrl}${answer.url}`
  }
  const meta = page.meta ?? {}
  for (const file of [meta.ogImage, meta.twitterImage]) {
    const failure = pointAtCopies(file, { media, baseUrl, absolute: true })
    if (failure) return failure
  }
  const failure = pointAtCopies(page.media, { media, baseUrl, absolute: false, shownIn })
  if (failure) return failure
  for (const column of Object.values(page.content ?? {})) {
    const inColumn = pointElementsAtCopies(column, { media, baseUrl, shownIn }, 0)
    if (inColumn) return inColumn
  }
  return undefined
}

/**
 * Points the files a locale's prepared initial data names (a footer's image, custom keys a site's TypoScript
 * adds) at their copies; a content element envelope in it (`footerContactData`) names its element uid.
 */
export function applyMediaToInitialData(
  data: Record<string, unknown>,
  media: MediaMap,
  shownIn?: ShownIn,
): MediaFailure | undefined {
  for (const value of Object.values(data)) {
    const element = isRecord(value) && 'content' in value && typeof value.id === 'number' ? value : undefined
    const failure = element
      ? pointElementsAtCopies([element as unknown as ContentElement], { media, baseUrl: undefined, shownIn }, 0)
      : pointAtCopies(value, { media, baseUrl: undefined, absolute: false, shownIn })
    if (failure) return failure
  }
  return undefined
}
