/** What the popover panels of the header (the phone menu, the language switcher) do with script. */
import type { FocusEvent } from 'react'

/**
 * `onBlur` of a popover panel: focus that the keyboard moves out of it (Tab past its last link, Shift+Tab before
 * its first) closes it, else it would go on to what the open panel covers. Not when the focus goes nowhere (the
 * window lost it), nor to an element the pointer pressed: that is the browser's light dismiss, and a press on the
 * panel's own button toggles it.
 */
export function closeWhenFocusLeaves(event: FocusEvent<HTMLElement>) {
  const panel = event.currentTarget
  const next = event.relatedTarget
  if (!(next instanceof Element) || panel.contains(next) || next.matches(':hover')) return
  if (typeof panel.hidePopover === 'function' && panel.matches(':popover-open')) panel.hidePopover()
}

/**
 * `ref` of the main navigation: Escape hides the submenu that hover or focus shows (content shown so must be
 * dismissible without moving either), the innermost first, its parent link taking back the focus from it. The
 * pointer or the focus entering its item again shows it again.
 */
export function closeSubmenuOnEscape(nav: HTMLElement) {
  const listener = ({ key, target, relatedTarget }: KeyboardEvent & FocusEvent) => {
    // a key event a script makes may have no key, and the document (which has no closest) as its target
    const item = key
      ? key === 'Escape' &&
        [...nav.querySelectorAll('.nav__item--parent:is(:hover,:focus-within):not(.is-closed)')].pop()
      : (target as Element).closest?.('.is-closed')
    if (!item) return
    if (key && item.contains(document.activeElement)) (item.firstChild as HTMLElement).focus()
    item.classList.toggle('is-closed', !!key || item.contains(relatedTarget as Node))
  }
  const types = ['keydown', 'mouseover', 'focusin']
  for (const type of types) addEventListener(type, listener as EventListener)
  return () => {
    for (const type of types) removeEventListener(type, listener as EventListener)
  }
}
