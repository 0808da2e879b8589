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
