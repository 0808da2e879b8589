/** The preview options panel: a floating button that opens a list of checkboxes. */
import { PREVIEW_OPTION_IDS, PREVIEW_OPTION_LABELS, type PreviewOptions } from './options.js'

const PANEL_ID = 'pce-options-panel'

export function createOptionsPanel(
  doc: Document,
  options: PreviewOptions,
  onChange: (options: PreviewOptions) => void,
): HTMLElement {
  const wrapper = doc.createElement('div')
  wrapper.className = 'pce-options'
  const toggle = doc.createElement('button')
  toggle.type = 'button'
  toggle.className = 'pce-options-toggle'
  toggle.setAttribute('aria-expanded', 'false')
  toggle.setAttribute('aria-controls', PANEL_ID)
  toggle.setAttribute('aria-label', 'Preview options')
  toggle.title = 'Preview options'
  toggle.textContent = '\u2699'

  const panel = doc.createElement('fieldset')
  panel.id = PANEL_ID
  panel.className = 'pce-options-panel'
  panel.hidden = true
  const legend = doc.createElement('legend')
  legend.textContent = 'Preview options'
  panel.appendChild(legend)

  const current = { ...options }
  for (const id of PREVIEW_OPTION_IDS) {
    const label = doc.createElement('label')
    const box = doc.createElement('input')
    box.type = 'checkbox'
    box.name = id
    box.checked = current[id]
    box.addEventListener('change', () => {
      current[id] = box.checked
      onChange({ ...current })
    })
    label.append(box, ` ${PREVIEW_OPTION_LABELS[id]}`)
    panel.appendChild(label)
  }

  const setOpen = (open: boolean) => {
    panel.hidden = !open
    toggle.setAttribute('aria-expanded', String(open))
  }
  toggle.addEventListener('click', () => setOpen(panel.hidden))
  doc.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !panel.hidden) {
      setOpen(false)
      toggle.focus()
    }
  })
  // the panel after its button (it is drawn above it): Tab from the opened button goes on to the options
  wrapper.append(toggle, panel)
  return wrapper
}
