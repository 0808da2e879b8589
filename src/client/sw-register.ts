/** Registers `/sw.js` once the page has loaded (static site only) and tells it which build is current. */
export const SERVICE_WORKER_URL = '/sw.js'

export function registerServiceWorker(win: Window, buildId: string): void {
  const { serviceWorker } = win.navigator
  if (!serviceWorker || !win.isSecureContext) return
  const register = () => {
    serviceWorker
      .register(SERVICE_WORKER_URL)
      .then(() => serviceWorker.ready)
      .then((registration) => registration.active?.postMessage({ type: 'site:build', buildId }))
      .catch(() => undefined)
  }
  if (win.document.readyState === 'complete') register()
  else win.addEventListener('load', register, { once: true })
}
