/**
 * Registers `/sw.js` once the page has loaded (static site only) and tells it which client code is
 * current (its version names the worker's asset cache generation; the message keeps its `buildId` field).
 */
export const SERVICE_WORKER_URL = '/sw.js'

export function registerServiceWorker(win: Window, clientVersion: string): void {
  const { serviceWorker } = win.navigator
  if (!serviceWorker || !win.isSecureContext) return
  const register = () => {
    serviceWorker
      .register(SERVICE_WORKER_URL)
      .then(() => serviceWorker.ready)
      .then((registration) => registration.active?.postMessage({ type: 'site:build', buildId: clientVersion }))
      .catch(() => undefined)
  }
  if (win.document.readyState === 'complete') register()
  else win.addEventListener('load', register, { once: true })
}
