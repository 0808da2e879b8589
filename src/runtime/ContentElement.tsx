/**
 * One content element: envelope checked first, then the registry's component for its
 * type (names.ts), inside its Frame. A bad envelope is skipped and reported.
 * Server side, renderPage retries without an element whose template threw (see RenderTrace);
 * browser side, ElementBoundary hides it the same way.
 */
import { Component, createElement, type ReactNode, Suspense } from 'react'
import type { ContentElementProps } from '../shared/contract.js'
import type { ContentElement as ContentElementData } from '../shared/types.js'
import type { RenderTrace } from './context.js'
import { ElementContext, useSiteContext } from './context.js'
import { checkElement, isFrameless } from './element.js'
import { Frame } from './Frame.js'
import { findContent, resolveContent } from './names.js'

class ElementBoundary extends Component<{ children?: ReactNode }, { failed: boolean }> {
  override state = { failed: false }
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true }
  }
  override render(): ReactNode {
    return this.state.failed ? null : this.props.children
  }
}

// Rendered after the element's subtree: server rendering is depth-first, so the stack's
// last entry is always the innermost element still rendering.
function TraceEnd({ trace }: { trace: RenderTrace }) {
  trace.stack.pop()
  return null
}

// What a Suspense boundary renders when the element's subtree suspended (see RenderTrace.suspended).
function Suspended({ trace, element }: { trace: RenderTrace; element: ContentElementData }) {
  trace.suspended?.push(element)
  return null
}

export interface ContentElementRenderProps {
  /** A content element envelope from the API (checked before use). */
  element: unknown
  /** Position in its column. */
  index?: number
}

export function ContentElement({ element, index = 0 }: ContentElementRenderProps) {
  const ctx = useSiteContext()
  const check = checkElement(element)
  if (!check.ok) {
    ctx.problems.push({ kind: 'ELEMENT_SKIPPED', message: `content element skipped: ${check.reason}` })
    return null
  }
  const el = check.element
  if (ctx.trace?.skip.has(el.id)) return null
  ctx.trace?.stack.push(el)
  const body = <ElementBody element={el} index={index} framed />
  return (
    <>
      {ctx.trace?.suspended ? (
        <Suspense fallback={<Suspended trace={ctx.trace} element={el} />}>{body}</Suspense>
      ) : (
        body
      )}
      {ctx.trace && <TraceEnd trace={ctx.trace} />}
    </>
  )
}

/**
 * A checked element's template inside its element context and boundary; `framed`: inside its Frame.
 * Unframed, it is what the browser hydrates into the frame `#c<uid>` of an island (src/client/islands.tsx).
 */
export function ElementBody({
  element: el,
  index,
  framed,
}: {
  element: ContentElementData
  index: number
  framed: boolean
}) {
  const ctx = useSiteContext()
  // `key` and `ref` would be taken by React itself, not passed on.
  const { key: _key, ref: _ref, ...content } = el.content
  const props: ContentElementProps = {
    ...content,
    uid: el.id,
    type: el.type,
    appearance: el.appearance ?? {},
    index,
    element: el,
  }
  const own = findContent(ctx.registry, el.type)
  if (!own) ctx.trace?.fallbacks.push({ kind: 'content', name: el.type })
  const body = createElement(own ?? resolveContent(ctx.registry, el.type), props)
  return (
    <ElementContext.Provider value={{ element: el, index, frameless: isFrameless(el.appearance) }}>
      <ElementBoundary>{framed ? <Frame element={el}>{body}</Frame> : body}</ElementBoundary>
    </ElementContext.Provider>
  )
}
