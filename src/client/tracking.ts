/** Page views for the tag manager (SPEC point 1): the first one and each client navigation. */

export interface PageView {
  event: 'page_view'
  page_title: string
  page_path: string
}

export function pushPageView(win: { dataLayer?: unknown[] }, view: { title: string; path: string }): PageView {
  const entry: PageView = { event: 'page_view', page_title: view.title, page_path: view.path }
  win.dataLayer ??= []
  win.dataLayer.push(entry)
  return entry
}
