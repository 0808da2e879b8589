/** Pure checks and class names of content element envelopes. */
import type { ContentElement, ElementAppearance } from '../shared/types.js'
import { isRecord } from '../shared/values.js'

export { isRecord }

export type ElementCheck = { ok: true; element: ContentElement } | { ok: false; reason: string }

/** Checks the envelope before anything renders it: numeric id, string type, object content. */
export function checkElement(value: unknown): ElementCheck {
  if (!isRecord(value)) return { ok: false, reason: 'not an object' }
  if (typeof value.id !== 'number' || !Number.isFinite(value.id)) return { ok: false, reason: 'no numeric id' }
  if (typeof value.type !== 'string' || value.type === '')
    return { ok: false, reason: `element ${value.id} has no type` }
  if (!isRecord(value.content))
    return { ok: false, reason: `element ${value.id} (${value.type}) has no content object` }
  if (value.appearance !== undefined && !isRecord(value.appearance)) {
    return { ok: false, reason: `element ${value.id} (${value.type}) has an appearance that is not an object` }
  }
  return { ok: true, element: value as unknown as ContentElement }
}

// A class token from API data: letters, digits, `-` and `_` only, so one value stays one class.
export const classToken = (value: unknown, fallback: string): string => {
  if (typeof value !== 'string' && typeof value !== 'number') return fallback
  const clean = String(value)
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, '-')
  return clean === '' ? fallback : clean
}

/** `frameClass` is `none`: the element renders without a frame wrapper. */
export const isFrameless = (appearance: ElementAppearance | undefined): boolean => appearance?.frameClass === 'none'

/**
 * Classes of a content element frame; empty values become `default`.
 * Example: `{ frameClass: 'container', layout: 'hero', spaceBefore: '', spaceAfter: 'large' }`
 * -> `t3-ce-frame frame-container layout-hero space-before-default space-after-large`.
 */
export function frameClassName(appearance: ElementAppearance | undefined): string {
  const a = appearance ?? {}
  return [
    't3-ce-frame',
    `frame-${classToken(a.frameClass, 'default')}`,
    `layout-${classToken(a.layout, 'default')}`,
    `space-before-${classToken(a.spaceBefore, 'default')}`,
    `space-after-${classToken(a.spaceAfter, 'default')}`,
  ].join(' ')
}

/** Joins class names, skipping empty ones. */
export const cx = (...names: Array<string | false | null | undefined>): string => names.filter(Boolean).join(' ')
