/**
 * Location indicators: while the element being edited is scrolled out of view, the body
 * gets `data-pce-focused-above` or `-below` and a small button points back to it.
 */
export function createLocationIndicators(
  doc: Document,
  scrollBack: () => void,
): { track(target: HTMLElement | null): void } {
  const body = doc.body
  for (const side of ['above', 'below'] as const) {
    const button = doc.createElement('button')
    button.type = 'button'
    button.className = `pce-indicator pce-indicator-${side}`
    button.textContent = side === 'above' ? '\u25B2' : '\u25BC'
    button.setAttribute('aria-label', 'Scroll to the element being edited')
    button.addEventListener('click', scrollBack)
    body.appendChild(button)
  }
  const set = (above: boolean, below: boolean) => {
    if (above) body.setAttribute('data-pce-focused-above', '1')
    else body.removeAttribute('data-pce-focused-above')
    if (below) body.setAttribute('data-pce-focused-below', '1')
    else body.removeAttribute('data-pce-focused-below')
  }
  const observer =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver((entries) => {
          const entry = entries[entries.length - 1]
          if (!entry) return
          const outside = !entry.isIntersecting
          set(outside && entry.boundingClientRect.bottom <= 0, outside && entry.boundingClientRect.top > 0)
        })
      : undefined
  return {
    track(target) {
      observer?.disconnect()
      set(false, false)
      if (target) observer?.observe(target)
    },
  }
}
