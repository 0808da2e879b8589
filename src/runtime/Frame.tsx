/**
 * Content element frames and the editor preview markup (`?pce=1`, docs/editors.md):
 * in editor preview every frame is a `pce-target` whose first child is the edit link.
 */
import { createElement, type HTMLAttributes, type ReactNode } from 'react'
import type { ContentElement } from '../shared/types.js'
import { useElement, useSite } from './context.js'
import { cx, frameClassName, isFrameless } from './element.js'
import { ENGINE_TEXTS } from './engine-texts.js'
import { pickLocale } from './texts.js'

/** The edit link of editor preview; the browser client adds its click behaviour. */
export function EditLink({ uid }: { uid: number }) {
  const site = useSite()
  const texts = pickLocale(ENGINE_TEXTS, site.locale, site.site.i18n.default)
  return (
    <a
      className="pce-edit-link"
      href={`#c${uid}`}
      data-pce-uid={uid}
      data-label-edit={texts.edit}
      data-label-editing={texts.editing}
    >
      {texts.edit}
    </a>
  )
}

/** The frame around one content element; for `frameClass: none` only its children (see `ElementRoot`). */
export function Frame({ element, children }: { element: ContentElement; children?: ReactNode }) {
  const { editorPreview } = useSite()
  if (isFrameless(element.appearance)) return <>{children}</>
  return (
    <div
      id={`c${element.id}`}
      className={cx(frameClassName(element.appearance), editorPreview && 'pce-target')}
      data-pce-uid={editorPreview ? element.id : undefined}
    >
      {editorPreview && <EditLink uid={element.id} />}
      {children}
    </div>
  )
}

type RootTag = 'div' | 'section' | 'article' | 'aside' | 'figure' | 'nav' | 'header' | 'footer' | 'hr'

export interface ElementRootProps extends HTMLAttributes<HTMLElement> {
  as?: RootTag
}

/**
 * The root element of a content element template. Without a frame (`frameClass: none`)
 * it carries what the frame would: `id="c<uid>"` and, in editor preview, the edit markup.
 */
export function ElementRoot({ as = 'div', className, children, ...rest }: ElementRootProps) {
  const info = useElement()
  const { editorPreview } = useSite()
  const isVoid = as === 'hr'
  if (!info?.frameless)
    return isVoid ? createElement(as, { className, ...rest }) : createElement(as, { className, ...rest }, children)
  const uid = info.element.id
  const edit = editorPreview && !isVoid
  const props = {
    ...rest,
    id: `c${uid}`,
    className: cx(className, edit && 'pce-target'),
    'data-pce-uid': edit ? uid : undefined,
  }
  return isVoid ? createElement(as, props) : createElement(as, props, edit ? <EditLink uid={uid} /> : null, children)
}
