/**
 * The one page renderer: render state + template registry in, markup and head out.
 * Pure (no I/O, no clock). A content element whose template throws is skipped and
 * reported; an error anywhere else (layout, header, footer) fails the render.
 */
import { renderToString } from 'react-dom/server'
import { messageOf, SiteError } from '../errors.js'
import { TEMPLATE_LAYOUT } from '../hydration/manifest.js'
import { buildHead, getBodyClass } from '../runtime/head.js'
import { getHtmlAttrs, type RenderTrace, SiteApp } from '../runtime/index.js'
import { resolveLayout } from '../runtime/names.js'
import type { DataProblem, RenderResult, RenderState, TemplateRegistry } from '../shared/contract.js'

/** Give up after skipping this many throwing elements: beyond that the templates are broken, not the data. */
const MAX_SKIPPED_ELEMENTS = 25

/** `templates/content/Text.tsx:12:11` when the registry can tell where in templates/ the error was thrown. */
function whereThrown(registry: TemplateRegistry, error: unknown): string | undefined {
  const at = registry.locate?.(error)
  return at && `${at.file}:${at.line}:${at.column}`
}

/** What React says when a component suspends (an async one): it names neither the component nor the cause. */
const SUSPENDED_RE = /^A component suspended while responding to synchronous input/
const SUSPENDED =
  'a component it renders is async or waits for a promise (a page renders at once: nothing can be awaited while it renders)'

/** The first element (not skipped) whose subtree suspends, found by rendering again with a Suspense boundary around each. */
function firstSuspended(state: RenderState, registry: TemplateRegistry, skip: ReadonlySet<number>) {
  const trace: RenderTrace = { stack: [], skip, fallbacks: [], suspended: [] }
  try {
    renderToString(<SiteApp state={state} registry={registry} problems={[]} trace={trace} />)
  } catch {
    // what else fails is told by the render that stops on it
  }
  return trace.suspended?.[0]
}

/** A template that renders nothing, put in the place of one to see whether the page still suspends. */
const Nothing = () => null

/**
 * Which of the page's own templates (Header, Footer, ErrorPage, its layout) suspends when no element does: each
 * left out in turn, the one without which the page renders. Named by its file under the project, without extension.
 */
function suspendingTemplate(state: RenderState, registry: TemplateRegistry, skip: ReadonlySet<number>) {
  // the registry key of the layout the page renders with
  const rendered = resolveLayout(registry, state.page?.appearance?.backendLayout)
  const layout = Object.keys(registry.layouts).find((key) => registry.layouts[key] === rendered) ?? 'Default'
  const without: Array<[string, TemplateRegistry]> = [
    ...TEMPLATE_LAYOUT.singles.map((name): [string, TemplateRegistry] => [
      `${TEMPLATE_LAYOUT.dir}/${name}`,
      { ...registry, [name]: Nothing },
    ]),
    [`${TEMPLATE_LAYOUT.layouts}/${layout}`, { ...registry, layouts: { ...registry.layouts, [layout]: Nothing } }],
  ]
  return without.find(([, candidate]) => {
    try {
      renderToString(
        <SiteApp state={state} registry={candidate} problems={[]} trace={{ stack: [], skip, fallbacks: [] }} />,
      )
      return true
    } catch {
      return false
    }
  })?.[0]
}

export function renderPage(state: RenderState, registry: TemplateRegistry): RenderResult {
  const skip = new Set<number>()
  const skipped: DataProblem[] = []
  for (;;) {
    const problems: DataProblem[] = []
    const trace: RenderTrace = { stack: [], skip, fallbacks: [] }
    try {
      const appHtml = renderToString(<SiteApp state={state} registry={registry} problems={problems} trace={trace} />)
      return {
        appHtml,
        head: buildHead(state),
        htmlAttrs: getHtmlAttrs(state),
        bodyAttrs: { class: getBodyClass(state) },
        status: state.status,
        problems: [...skipped, ...problems],
        fallbacks: trace.fallbacks,
      }
    } catch (error) {
      const suspended = SUSPENDED_RE.test(messageOf(error))
      const failed = suspended ? firstSuspended(state, registry, skip) : trace.stack.at(-1)
      const at = whereThrown(registry, error)
      const thrown = suspended ? SUSPENDED : `${messageOf(error)}${at ? ` (at ${at})` : ''}`
      if (!failed || skip.has(failed.id) || skip.size >= MAX_SKIPPED_ELEMENTS) {
        // no element suspends: the header, the footer or the layout does, and its file is what to name
        const template = suspended && !failed ? suspendingTemplate(state, registry, skip) : undefined
        const why = template ? `${template}: ${thrown}` : thrown
        throw new SiteError('RENDER_FAILED', `Rendering ${state.path} failed: ${why}`, { cause: error, status: 500 })
      }
      skip.add(failed.id)
      skipped.push({
        kind: 'ELEMENT_SKIPPED',
        message: `${state.path}: content element ${failed.id} (${failed.type}) skipped, its template threw: ${thrown}`,
        elementUid: failed.id,
        ...(at ? { at } : {}),
      })
    }
  }
}
