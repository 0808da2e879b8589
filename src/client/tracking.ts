/** Page views for the tag manager: one per client navigation (the page's loader pushes the first, src/render/document.ts). */

export interface PageView {
  event: 'page_view'
  page_title: string
  page_path: string
}

/**
 * A page's path as page views name it, as the page's loader counts its first: without a trailing slash or
 * `index.html` (`/about-us/` and `/about-us/index.html`, where static hosts serve it too, are `/about-us`).
 */
export function pushPageView(win: { dataLayer?: unknown[] }, view: { title: string; path: string }): PageView {
  const entry: PageView = {
    event: 'page_view',
    page_title: view.title,
    page_path: view.path.replace(/\/(index\.html)?$/, '') || '/',
  }
  win.dataLayer ??= []
  win.dataLayer.push(entry)
  return entry
}
