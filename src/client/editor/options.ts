/**
 * Editor preview options (defaults in PREVIEW_OPTION_DEFAULTS): stored as `{id: boolean}` JSON
 * in `localStorage['pce-options']`, shown as `data-pce-<id>="1"` on `<body>`.
 */
import { PREVIEW_OPTION_DEFAULTS, PREVIEW_OPTIONS_KEY, type PreviewOptionId } from '../../shared/client-constants.js'

export type PreviewOptions = Record<PreviewOptionId, boolean>

export const PREVIEW_OPTION_IDS = Object.keys(PREVIEW_OPTION_DEFAULTS) as PreviewOptionId[]

export const PREVIEW_OPTION_LABELS: Record<PreviewOptionId, string> = {
  'dim-inactive': 'Dim inactive elements',
  'show-outline-on-link-hover': 'Outline element on edit link hover',
  'show-location-indicators': 'Show location indicators',
  'navigate-pages-in-typo3': 'Navigate pages in the backend',
  'always-show-links': 'Always show edit links',
  'always-show-outline': 'Always show outlines',
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>

/** Stored options over the defaults; unknown ids and non-boolean values are ignored. */
export function loadOptions(storage: StorageLike | undefined): PreviewOptions {
  const options: PreviewOptions = { ...PREVIEW_OPTION_DEFAULTS }
  try {
    const stored: unknown = JSON.parse(storage?.getItem(PREVIEW_OPTIONS_KEY) ?? '{}')
    if (stored && typeof stored === 'object') {
      for (const id of PREVIEW_OPTION_IDS) {
        const value = (stored as Record<string, unknown>)[id]
        if (typeof value === 'boolean') options[id] = value
      }
    }
  } catch {
    // Unreadable storage or JSON: the defaults apply.
  }
  return options
}

export function saveOptions(storage: StorageLike | undefined, options: PreviewOptions): void {
  try {
    storage?.setItem(PREVIEW_OPTIONS_KEY, JSON.stringify(options))
  } catch {
    // Storage full or disabled: the options still apply to this page.
  }
}

export function applyOptions(
  body: Pick<HTMLElement, 'setAttribute' | 'removeAttribute'>,
  options: PreviewOptions,
): void {
  for (const id of PREVIEW_OPTION_IDS) {
    if (options[id]) body.setAttribute(`data-pce-${id}`, '1')
    else body.removeAttribute(`data-pce-${id}`)
  }
}
