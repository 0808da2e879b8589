/** Preview only: reloads the tab when the preview server announces a rebuild (server-sent `reload` events). */
export function startLiveReload(url: string, reload: () => void): EventSource | undefined {
  if (typeof EventSource !== 'function') return undefined
  const source = new EventSource(url)
  source.addEventListener('reload', () => {
    source.close()
    reload()
  })
  return source
}
