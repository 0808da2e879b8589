/**
 * The editor preview client (docs/editors.md), a second entry loaded only on
 * `?pce=1` preview pages, after the visitor entry: edit links, window messages
 * with the CMS, the preview options and their panel.
 */
import { PREVIEW_MESSAGES } from '../../shared/client-constants.js'
import { readBoot } from '../boot.js'
import { onPage } from '../events.js'
import { createLocationIndicators } from './indicators.js'
import { isFramed, postToParent, readIncoming, toRecordUrl, toUid } from './messages.js'
import { applyOptions, loadOptions, saveOptions } from './options.js'
import { createOptionsPanel } from './panel.js'
import { injectEditorStyles } from './styles.js'
import { EDIT_LINK_SELECTOR, findTarget, markEditing } from './targets.js'

function getLocalStorage(win: Window): Storage | undefined {
  try {
    return win.localStorage
  } catch {
    return undefined
  }
}

function startEditor(win: Window): void {
  const doc = win.document
  const boot = readBoot(doc)
  if (!boot.state.editorPreview) return
  let recordTemplate = boot.state.initialData?.backendEditor?.record
  let editingUid: number | undefined

  injectEditorStyles(doc)
  const storage = getLocalStorage(win)
  let options = loadOptions(storage)
  // Written at once, so the stored defaults are visible to the backend and to the next page.
  saveOptions(storage, options)
  applyOptions(doc.body, options)
  doc.body.appendChild(
    createOptionsPanel(doc, options, (next) => {
      options = next
      saveOptions(storage, next)
      applyOptions(doc.body, next)
    }),
  )

  const reducedMotion = () => win.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true
  const scrollTo = (target: HTMLElement | null) =>
    target?.scrollIntoView({ block: 'center', behavior: reducedMotion() ? 'auto' : 'smooth' })
  const indicators = createLocationIndicators(doc, () =>
    scrollTo(editingUid === undefined ? null : findTarget(doc, editingUid)),
  )
  const mark = (uid: number | undefined) => {
    editingUid = uid
    const target = markEditing(doc, uid)
    indicators.track(target)
    return target
  }

  // Capture phase: runs before the router's click handler, which then sees `defaultPrevented`.
  doc.addEventListener(
    'click',
    (event) => {
      const link = event.target instanceof Element ? event.target.closest(EDIT_LINK_SELECTOR) : null
      if (!link) return
      event.preventDefault()
      const uid = toUid(link.closest('.pce-target')?.getAttribute('data-pce-uid') ?? link.getAttribute('data-pce-uid'))
      if (uid === undefined) return
      mark(uid)
      if (isFramed(win)) {
        postToParent(win, { type: PREVIEW_MESSAGES.openEditUid, uid })
        return
      }
      const url = toRecordUrl(recordTemplate, uid)
      if (url) win.open(url, '_blank', 'noopener')
    },
    true,
  )

  win.addEventListener('message', (event) => {
    // Only the embedding backend (or the page itself when it is not framed) steers the preview.
    if (event.source !== win.parent) return
    const message = readIncoming(event.data)
    if (message) scrollTo(mark(message.uid))
  })

  onPage(win, ({ state, kind }) => {
    recordTemplate = state.initialData.backendEditor?.record ?? recordTemplate
    // React reuses nodes across pages: labels and highlight are re-applied to the new page.
    if (kind !== 'hydrate') mark(editingUid)
    // "Navigate pages in the backend": the editor followed a link in the preview; the CMS's page
    // module follows to the same page (its uid is the page's id), as TYPO3's own preview does.
    const pageUid = toUid(state.page?.id)
    if (kind !== 'hydrate' && options['navigate-pages-in-typo3'] && pageUid !== undefined)
      postToParent(win, { type: PREVIEW_MESSAGES.openPageUid, uid: pageUid })
    postToParent(win, { type: PREVIEW_MESSAGES.previewReady })
  })
}

startEditor(window)
