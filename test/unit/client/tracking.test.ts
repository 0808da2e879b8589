import { describe, expect, it } from 'vitest'
import { pushPageView } from '../../../src/client/tracking.js'

describe('page view tracking', () => {
  it('push page views to a data layer, creating it when missing', () => {
    const win: { dataLayer?: unknown[] } = {}
    pushPageView(win, { title: 'Home', path: '/' })
    pushPageView(win, { title: 'O nas', path: '/pl/o-nas' })
    // a host that serves each page from its folder shows /pl/o-nas/: one page, one path
    pushPageView(win, { title: 'O nas', path: '/pl/o-nas/' })
    // and at /pl/o-nas/index.html, as static hosts serve it too
    pushPageView(win, { title: 'O nas', path: '/pl/o-nas/index.html' })
    pushPageView(win, { title: 'Home', path: '/index.html' })
    expect(win.dataLayer).toEqual([
      { event: 'page_view', page_title: 'Home', page_path: '/' },
      { event: 'page_view', page_title: 'O nas', page_path: '/pl/o-nas' },
      { event: 'page_view', page_title: 'O nas', page_path: '/pl/o-nas' },
      { event: 'page_view', page_title: 'O nas', page_path: '/pl/o-nas' },
      { event: 'page_view', page_title: 'Home', page_path: '/' },
    ])
  })
})
