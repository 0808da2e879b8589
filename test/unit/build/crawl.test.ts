import { describe, expect, it } from 'vitest'
import { createCrawler, type DiscoveredPath } from '../../../src/build/crawl.js'

const link = (path: string, origin: 'nav' | 'content' = 'nav', from = 'test'): DiscoveredPath => ({
  path,
  origin,
  from,
})

describe('createCrawler', () => {
  it('visits every reachable path once, cycles included', async () => {
    const graph: Record<string, string[]> = {
      '/': ['/a', '/b'],
      '/a': ['/', '/b', '/c'],
      '/b': ['/a'],
      '/c': ['/c', '/'],
    }
    const visits: string[] = []
    const crawler = createCrawler({
      maxInFlight: 3,
      visit: async (path) => {
        visits.push(path)
        return (graph[path] ?? []).map((p) => link(p))
      },
    })
    crawler.add([link('/'), link('/')])
    await crawler.run()
    expect(visits.sort()).toEqual(['/', '/a', '/b', '/c'])
    expect(crawler.known).toBe(4)
    expect(crawler.visited).toBe(4)
  })

  it('never has more than maxInFlight visits at once', async () => {
    let active = 0
    let peak = 0
    const crawler = createCrawler({
      maxInFlight: 2,
      visit: async (path) => {
        active += 1
        peak = Math.max(peak, active)
        await new Promise((done) => setTimeout(done, 2))
        active -= 1
        return path === '/' ? Array.from({ length: 10 }, (_, i) => link(`/p${i}`)) : []
      },
    })
    crawler.add([link('/')])
    await crawler.run()
    expect(crawler.visited).toBe(11)
    expect(peak).toBe(2)
  })

  it('remembers where a path was found; a navigation link wins over content', async () => {
    const crawler = createCrawler({ maxInFlight: 1, visit: async () => [] })
    crawler.add([link('/x', 'content', '/page'), link('/y', 'nav', 'initial data (en)')])
    crawler.add([link('/x', 'nav', '/other'), link('/y', 'content', '/third')])
    expect(crawler.originOf('/x')).toEqual({ origin: 'nav', from: '/other' })
    expect(crawler.originOf('/y')).toEqual({ origin: 'nav', from: 'initial data (en)' })
    expect(crawler.originOf('/z')).toBeUndefined()
  })

  it('lets visits in flight settle before passing on an unexpected error', async () => {
    let settled = 0
    const crawler = createCrawler({
      maxInFlight: 4,
      visit: async (path) => {
        if (path === '/bad') throw new Error('bug')
        await new Promise((done) => setTimeout(done, 5))
        settled += 1
        return []
      },
    })
    crawler.add([link('/bad'), link('/a'), link('/b')])
    await expect(crawler.run()).rejects.toThrow('bug')
    expect(settled).toBe(2)
  })
})
