/** CSS of the preview widgets, injected by the editor entry (preview pages only). */
const ACCENT = '#ff8700'
// Text on the accent: black is 8.7:1 on it, white only 2.4:1 (templates/styles.css draws the edit link so too).
// Hovered as well: a site's `a:hover` colour is more specific than `.pce-edit-link`.
const ON_ACCENT = '#000'

// The panel is a fieldset whose legend floats (so it sits inside the panel, not on its border).
// Each option clears that float: without it the first one, a flex box and so a new block
// formatting context, was squeezed beside the full-width legend to zero width, its checkbox
// drawn outside the panel.

const EDITOR_CSS = `
.pce-target{position:relative}
.pce-edit-link{position:absolute;top:4px;right:4px;z-index:20;padding:2px 8px;border-radius:3px;background:${ACCENT};color:${ON_ACCENT};font:600 12px/1.6 system-ui,sans-serif;text-decoration:none;opacity:0;transition:opacity .15s}
.pce-edit-link:hover{color:${ON_ACCENT}}
.pce-target:hover>.pce-edit-link,.pce-edit-link:focus-visible,[data-pce-focused]>.pce-edit-link,body[data-pce-always-show-links="1"] .pce-edit-link{opacity:1}
body[data-pce-always-show-outline="1"] .pce-target{outline:1px dashed ${ACCENT};outline-offset:-1px}
body[data-pce-show-outline-on-link-hover="1"] .pce-target:has(>.pce-edit-link:hover){outline:2px solid ${ACCENT};outline-offset:-2px}
.pce-target.pce-target-highlight{outline:2px solid ${ACCENT};outline-offset:-2px}
body[data-pce-dim-inactive="1"]:has([data-pce-focused]) .pce-target:not([data-pce-focused]):not(:has([data-pce-focused])){opacity:.45}
.pce-indicator{position:fixed;left:50%;z-index:2147483646;display:none;transform:translateX(-50%);padding:2px 10px;border:0;border-radius:3px;background:${ACCENT};color:${ON_ACCENT};cursor:pointer}
.pce-indicator-above{top:8px}.pce-indicator-below{bottom:8px}
body[data-pce-show-location-indicators="1"][data-pce-focused-above="1"] .pce-indicator-above,body[data-pce-show-location-indicators="1"][data-pce-focused-below="1"] .pce-indicator-below{display:block}
.pce-options{position:fixed;right:16px;bottom:16px;z-index:2147483646;font:14px/1.4 system-ui,sans-serif;color:#1f2937}
.pce-options-toggle{width:40px;height:40px;border:0;border-radius:50%;background:${ACCENT};color:${ON_ACCENT};font-size:20px;cursor:pointer;box-shadow:0 2px 6px rgba(0,0,0,.25)}
.pce-options-panel{position:absolute;right:0;bottom:48px;min-width:min(260px,calc(100vw - 32px));max-width:calc(100vw - 32px);margin:0;padding:8px 12px;border:1px solid #d1d5db;border-radius:6px;background:#fff;box-shadow:0 4px 12px rgba(0,0,0,.2)}
.pce-options-panel[hidden]{display:none}
.pce-options-panel legend{float:left;width:100%;margin-bottom:4px;padding:0;font-weight:600}
.pce-options-panel label{clear:both;display:flex;gap:6px;align-items:center;padding:2px 0;cursor:pointer}
@media (prefers-reduced-motion:reduce){.pce-edit-link{transition:none}}
`

export function injectEditorStyles(doc: Document): void {
  if (doc.getElementById('pce-styles')) return
  const style = doc.createElement('style')
  style.id = 'pce-styles'
  style.textContent = EDITOR_CSS
  doc.head.appendChild(style)
}
