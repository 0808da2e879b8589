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
    expect(crawler.originOf('/x')).toEqual({ path: '/x', origin: 'nav', from: '/other' })
    expect(crawler.originOf('/y')).toEqual({ path: '/y', origin: 'nav', from: 'initial data (en)' })
    expect(crawler.originOf('/z')).toBeUndefined()
  })

  // Issue 13, item 5: an API whose every page links to a new page made the crawl endless.
  it('knows at most maxPaths paths: the first beyond goes to onLimit once, and the crawl stops', async () => {
    const limits: DiscoveredPath[] = []
    const visits: string[] = []
    const crawler = createCrawler({
      maxInFlight: 2,
      maxPaths: 5,
      onLimit: (found) => limits.push(found),
      visit: async (path) => {
        visits.push(path)
        const n = Number(path.slice(3))
        return [link(`/p/${n + 1}`, 'content', path), link(`/p/${n + 2}`, 'content', path)]
      },
    })
    crawler.add([link('/p/0')])
    await crawler.run()
    expect(crawler.known).toBe(5)
    expect(limits).toHaveLength(1)
    expect(limits[0]).toMatchObject({ origin: 'content' })
    expect(visits.length).toBeLessThanOrEqual(5)
    expect(visits).not.toContain(limits[0]!.path)
  })

  it('starts no visit after stop(); visits in flight finish', async () => {
    const visits: string[] = []
    const crawler = createCrawler({
      maxInFlight: 1,
      visit: async (path) => {
        visits.push(path)
        if (path === '/b') crawler.stop()
        return []
      },
    })
    crawler.add([link('/a'), link('/b'), link('/c'), link('/d')])
    await crawler.run()
    expect(visits).toEqual(['/a', '/b'])
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
