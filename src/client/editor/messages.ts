/**
 * Window messages between the page (in the CMS's preview iframe) and the backend
 * (`t3-ux/content_preview`'s `pce-*` messages). Envelope: `{ type, ...payload }`, posted with target origin '*'.
 */
import { PREVIEW_MESSAGES } from '../../shared/client-constants.js'

export type IncomingMessage = { type: typeof PREVIEW_MESSAGES.scrollToUid; uid: number }
export type OutgoingMessage =
  | { type: typeof PREVIEW_MESSAGES.openEditUid; uid: number }
  | { type: typeof PREVIEW_MESSAGES.openPageUid; uid: number }
  | { type: typeof PREVIEW_MESSAGES.previewReady }

/** A content element uid from a message or an attribute: a positive whole number. */
export function toUid(value: unknown): number | undefined {
  const uid = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof uid === 'number' && Number.isSafeInteger(uid) && uid > 0 ? uid : undefined
}

/** The messages the page reacts to; undefined for anything else. */
export function readIncoming(data: unknown): IncomingMessage | undefined {
  if (!data || typeof data !== 'object') return undefined
  const { type, uid } = data as { type?: unknown; uid?: unknown }
  const checked = toUid(uid)
  return type === PREVIEW_MESSAGES.scrollToUid && checked !== undefined ? { type, uid: checked } : undefined
}

/** True when the page runs inside a frame (the CMS split view). */
export const isFramed = (win: Window): boolean => win.parent !== win

export function postToParent(win: Window, message: OutgoingMessage): void {
  if (isFramed(win)) win.parent.postMessage(message, '*')
}

/** The backend edit link of a content element: `__id__` in the template replaced by the uid. */
export function toRecordUrl(template: unknown, uid: number): string | undefined {
  if (typeof template !== 'string' || !template.includes('__id__')) return undefined
  const url = template.replace(/__id__/g, String(uid))
  return /^(https?:\/\/|\/(?!\/))/i.test(url) ? url : undefined
}
