/** Page views for the tag manager: one per client navigation (the page's loader pushes the first, src/render/document.ts). */

export interface PageView {
  event: 'page_view'
  page_title: string
  page_path: string
}

/** A page's path as page views name it: without a trailing slash (`/about-us/` -> `/about-us`), as the page's loader counts its first. */
export function pushPageView(win: { dataLayer?: unknown[] }, view: { title: string; path: string }): PageView {
  const entry: PageView = { event: 'page_view', page_title: view.title, page_path: view.path.replace(/(.)\/$/, '$1') }
  win.dataLayer ??= []
  win.dataLayer.push(entry)
  return entry
}
