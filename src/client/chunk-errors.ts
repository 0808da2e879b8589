/**
 * Chunk load errors (they cause a reload): a module script or
 * stylesheet under `/_site/` that failed to load, or a dynamic import that
 * failed, usually because a deploy removed the files of the build this tab runs.
 */
import { isEngineUrl } from '../shared/layout.js'

const DYNAMIC_IMPORT_RE = /dynamically imported module|Importing a module script failed|Failed to load module script/i

/** True for an error (or rejection reason) that means a bundle file could not be loaded. */
export function isChunkLoadError(reason: unknown): boolean {
  const message = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : ''
  return DYNAMIC_IMPORT_RE.test(message)
}

/** True for the URL of one of the engine's own files. */
export const isSiteAssetUrl = (url: string, origin: string): boolean => {
  try {
    const parsed = new URL(url, origin)
    return parsed.origin === origin && isEngineUrl(parsed.pathname)
  } catch {
    return false
  }
}

/** Calls `onChunkError` for failed `/_site/` scripts and stylesheets and failed dynamic imports. */
export function watchChunkErrors(win: Window, onChunkError: () => void): void {
  // Resource errors do not bubble: listen in the capture phase.
  win.addEventListener(
    'error',
    (event) => {
      const target = event.target
      const url =
        target instanceof HTMLScriptElement
          ? target.src
          : target instanceof HTMLLinkElement && target.rel === 'stylesheet'
            ? target.href
            : ''
      if (
        (url && isSiteAssetUrl(url, win.location.origin)) ||
        (event instanceof ErrorEvent && isChunkLoadError(event.error ?? event.message))
      )
        onChunkError()
    },
    true,
  )
  win.addEventListener('unhandledrejection', (event) => {
    if (isChunkLoadError(event.reason)) onChunkError()
  })
}
