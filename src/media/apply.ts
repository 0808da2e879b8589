/**
 * In the render worker, after the page was prepared: each file the build took points at its copy
 * (`publicUrl`, and `local` with its size and variants); og:image and twitter:image at the copy's absolute
 * URL on `baseUrl`. A file the build could not take fails the page, naming the element that shows it.
 * Changes the prepared page in place (the job's own data).
 */
import type { MediaFailureKind } from '../errors.js'
import type { ContentElement, FileRef, PageData } from '../shared/types.js'
import { isRecord } from '../shared/values.js'
import type { MediaMap } from './types.js'

export interface MediaFailure {
  kind: MediaFailureKind
  reason: string
  elementUid?: number
}

/** Deeper than this, a content element's data is not searched for files (prepare cut it at the same depth). */
const MAX_DEPTH = 64

/** Points the page's files at their copies; the first file the build could not take, when there is one. */
export function applyMedia(page: PageData, media: MediaMap, baseUrl: string | undefined): MediaFailure | undefined {
  const walk = (
    value: unknown,
    depth: number,
    elementUid: number | undefined,
    absolute: boolean,
  ): MediaFailure | undefined => {
    if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return undefined
    if (Array.isArray(value)) {
      for (const item of value) {
        const failure = walk(item, depth + 1, elementUid, absolute)
        if (failure) return failure
      }
      return undefined
    }
    const record = value as Record<string, unknown>
    if (typeof record.publicUrl === 'string') {
      const answer = media[record.publicUrl]
      if (answer) {
        if ('failed' in answer)
          return { kind: answer.failed, reason: answer.reason, ...(elementUid === undefined ? {} : { elementUid }) }
        if (absolute) {
          if (baseUrl !== undefined) record.publicUrl = `${baseUrl}${answer.url}`
        } else {
          record.publicUrl = answer.url
          ;(record as unknown as FileRef).local = answer.local
        }
      } else if (!absolute) delete record.local
    }
    for (const key in record) {
      if (key === 'publicUrl' || key === 'local') continue
      const child = record[key]
      // a shortcut's elements are elements of their own: what is wrong in one is wrong there
      const uid = key === 'shortcut' ? undefined : elementUid
      const failure =
        key === 'shortcut' && Array.isArray(child)
          ? walkElements(child as ContentElement[], depth + 1)
          : walk(child, depth + 1, uid, absolute)
      if (failure) return failure
    }
    return undefined
  }
  const walkElements = (elements: readonly ContentElement[], depth: number): MediaFailure | undefined => {
    for (const element of elements) {
      if (!isRecord(element)) continue
      const failure = walk(element.content, depth + 1, element.id, false)
      if (failure) return failure
    }
    return undefined
  }
  // the seo block's share image tags (they replace meta's): the copy's absolute URL as well
  for (const item of page.seo?.meta ?? []) {
    const tag = item.property ?? item.name
    const answer =
      (tag === 'og:image' || tag === 'twitter:image') && baseUrl !== undefined ? media[item.content] : undefined
    if (answer && 'failed' in answer) return { kind: answer.failed, reason: answer.reason }
    if (answer) item.content = `${baseUrl}${answer.url}`
  }
  const meta = page.meta ?? {}
  for (const file of [meta.ogImage, meta.twitterImage]) {
    const failure = walk(file, 0, undefined, true)
    if (failure) return failure
  }
  const failure = walk(page.media, 0, undefined, false)
  if (failure) return failure
  for (const column of Object.values(page.content ?? {})) {
    const inColumn = walkElements(column, 0)
    if (inColumn) return inColumn
  }
  return undefined
}
