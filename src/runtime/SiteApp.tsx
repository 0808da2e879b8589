/**
 * The whole app tree of one render state, identical on server and browser so that
 * hydration matches: loading-bar host, Header, main (backend layout or error page), Footer.
 */
import { useMemo } from 'react'
import type { DataProblem, PageError, RenderState, TemplateRegistry } from '../shared/contract.js'
import type { NavEntry } from '../shared/types.js'
import { type RenderTrace, SiteContext, type SiteContextValue } from './context.js'
import { isRecord } from './element.js'
import { pageLanguages } from './languages.js'
import { findLayout, resolveLayout } from './names.js'

/** Id of the empty element the browser client turns into the route loading bar. */
export const LOADING_BAR_ID = 'site-loading-bar'
/** Id of the main landmark (skip-link target). */
export const MAIN_ID = 'main'

export interface SiteAppProps {
  state: RenderState
  registry: TemplateRegistry
  /** Collects data problems found while rendering (server); a throwaway list by default. */
  problems?: DataProblem[]
  /** Server only, set by renderPage. */
  trace?: RenderTrace
  /**
   * Browser only, hydration of a page whose main needs no template code (its boot's `hydration`): the main's
   * markup as the server rendered it, kept as it is (React does not render into it). A later
   * render without it renders the main anew.
   */
  keptMain?: { __html: string }
}

interface MainProps {
  state: RenderState
  registry: TemplateRegistry
  problems: DataProblem[]
  trace?: RenderTrace
}

const isOn = (flag: unknown): boolean => flag === true || flag === 1 || flag === '1'

/** The top menu: the children of the site root `navigation[0]` of initial data. */
export function topNavigation(state: RenderState): NavEntry[] {
  const root = Array.isArray(state.initialData?.navigation) ? state.initialData.navigation[0] : undefined
  return isRecord(root) && Array.isArray(root.children) ? root.children : []
}

function Main({ state, registry, problems, trace }: MainProps) {
  const { page } = state
  if (page) {
    const backendLayout = page.appearance?.backendLayout
    const own = findLayout(registry, backendLayout)
    if (!own) trace?.fallbacks.push({ kind: 'layout', name: String(backendLayout) })
    const Layout = own ?? resolveLayout(registry, backendLayout)
    return <Layout content={isRecord(page.content) ? page.content : {}} page={page} />
  }
  if (state.status < 400) problems.push({ kind: 'INVALID_DATA', message: `${state.path}: no page data to render` })
  const status = state.status >= 400 ? state.status : 500
  const source = state.error ?? { status, message: '' }
  // The raw error never reaches a visitor's markup, only a preview with ?debug.
  const error: PageError = { status: source.status || status, message: source.message ?? '' }
  if (state.debug && state.mode === 'preview' && source.raw !== undefined) error.raw = source.raw
  // Preview's word to the editor (the API did not answer: what to check); it names no address.
  if (state.mode === 'preview' && source.hint) error.hint = source.hint
  const ErrorPage = registry.ErrorPage
  return <ErrorPage error={error} />
}

export function SiteApp({ state, registry, problems, trace, keptMain }: SiteAppProps) {
  const value = useMemo<SiteContextValue>(
    () => ({
      site: { ...state, debug: state.debug && state.mode === 'preview' },
      registry,
      problems: problems ?? [],
      trace,
    }),
    [state, registry, problems, trace],
  )
  const { Header, Footer } = registry
  return (
    <SiteContext.Provider value={value}>
      <div id={LOADING_BAR_ID} aria-hidden="true" />
      <Header
        navigation={topNavigation(state)}
        transparent={isOn(state.page?.appearance?.headerTransparent)}
        languages={pageLanguages(state)}
      />
      {keptMain ? (
        // Keyed apart from the rendered main: leaving the kept markup is a new element, not an update of it.
        <main key="kept" id={MAIN_ID} tabIndex={-1} dangerouslySetInnerHTML={keptMain} />
      ) : (
        <main key="rendered" id={MAIN_ID} tabIndex={-1}>
          <Main state={value.site} registry={registry} problems={value.problems} trace={trace} />
        </main>
      )}
      <Footer />
    </SiteContext.Provider>
  )
}
