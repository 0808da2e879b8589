import { describe, expect, it } from 'vitest'
import { createCrawler, type DiscoveredPath, type FoundLinks } from '../../../src/build/crawl/crawl.js'
import { StringPool } from '../../../src/build/page-table.js'

const links = (paths: string[], origin: 'nav' | 'content' = 'nav', from = 'test'): FoundLinks =>
  origin === 'nav' ? { from, nav: paths, content: [] } : { from, nav: [], content: paths }

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
        return links(graph[path] ?? [])
      },
    })
    crawler.add(links(['/', '/']))
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
        return path === '/' ? links(Array.from({ length: 10 }, (_, i) => `/p${i}`)) : undefined
      },
    })
    crawler.add(links(['/']))
    await crawler.run()
    expect(crawler.visited).toBe(11)
    expect(peak).toBe(2)
  })

  it('remembers where a path was found; a navigation link wins over content', async () => {
    const crawler = createCrawler({ maxInFlight: 1, visit: async () => undefined })
    crawler.add(links(['/x'], 'content', '/page'))
    crawler.add(links(['/y'], 'nav', 'initial data (en)'))
    crawler.add(links(['/x'], 'nav', '/other'))
    crawler.add(links(['/y'], 'content', '/third'))
    expect(crawler.originOf('/x')).toEqual({ path: '/x', origin: 'nav', from: '/other' })
    expect(crawler.originOf('/y')).toEqual({ path: '/y', origin: 'nav', from: 'initial data (en)' })
    expect(crawler.originOf('/z')).toBeUndefined()
  })

  it('takes links given as pool ids as it takes paths, by id or, from another pool, by string', async () => {
    const pool = new StringPool()
    const other = new StringPool()
    const ids = (from: StringPool, nav: string[], content: string[] = []) => ({
      pool: from,
      nav: nav.map((path) => from.id(path)),
      content: content.map((path) => from.id(path)),
    })
    const visits: string[] = []
    const graph: Record<string, FoundLinks> = {
      '/': { from: '/', nav: [], content: [], ids: ids(pool, ['/a', '/b'], ['/c']) },
      '/a': { from: '/a', nav: [], content: [], ids: ids(pool, ['/', '/c'], ['/b']) },
      '/b': { from: '/b', nav: [], content: ['/d'], ids: ids(other, [], ['/e']) },
    }
    const crawler = createCrawler({
      maxInFlight: 1,
      pool,
      visit: async (path) => {
        visits.push(path)
        return graph[path]
      },
    })
    crawler.add(links(['/']))
    await crawler.run()
    expect(visits).toEqual(['/', '/a', '/b', '/c', '/d', '/e'])
    // /c was first found in content, then in a navigation by id: the navigation wins, as for paths
    expect(crawler.originOf('/c')).toEqual({ path: '/c', origin: 'nav', from: '/a' })
    expect(crawler.originOf('/e')).toEqual({ path: '/e', origin: 'content', from: '/b' })
  })

  it('says which page and content element a path was first found in', async () => {
    const crawler = createCrawler({ maxInFlight: 1, visit: async () => undefined })
    crawler.add({ from: '/page', pageUid: 7, nav: ['/n'], content: ['/c', '/d'], elementUids: [11, 12] })
    crawler.add({ from: '/later', pageUid: 8, nav: [], content: ['/d', '/e'], elementUids: [13, 14] })
    expect(crawler.originOf('/n')).toEqual({ path: '/n', origin: 'nav', from: '/page', pageUid: 7 })
    expect(crawler.originOf('/c')).toEqual({ path: '/c', origin: 'content', from: '/page', pageUid: 7, elementUid: 11 })
    expect(crawler.originOf('/d')).toEqual({ path: '/d', origin: 'content', from: '/page', pageUid: 7, elementUid: 12 })
    expect(crawler.originOf('/e')).toMatchObject({ from: '/later', elementUid: 14 })
    expect(crawler.known).toBe(4)
  })

  // An API whose every page links to a new page once made the crawl endless.
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
        return links([`/p/${n + 1}`, `/p/${n + 2}`], 'content', path)
      },
    })
    crawler.add(links(['/p/0']))
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
        return undefined
      },
    })
    crawler.add(links(['/a', '/b', '/c', '/d']))
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
        return undefined
      },
    })
    crawler.add(links(['/bad', '/a', '/b']))
    await expect(crawler.run()).rejects.toThrow('bug')
    expect(settled).toBe(2)
  })

  it('takes a visit that answers at once (a kept page) without waiting, beside visits that wait', async () => {
    const graph: Record<string, string[]> = { '/': ['/k1', '/w1'], '/k1': ['/k2', '/w1'], '/w1': ['/k3'], '/k2': ['/'] }
    const visits: string[] = []
    const crawler = createCrawler({
      maxInFlight: 1,
      visit: (path) => {
        visits.push(path)
        const found = links(graph[path] ?? [])
        if (path.startsWith('/k')) return found
        return new Promise((done) => setTimeout(() => done(found), 2))
      },
    })
    crawler.add(links(['/']))
    await crawler.run()
    expect(visits.sort()).toEqual(['/', '/k1', '/k2', '/k3', '/w1'])
    expect(crawler.visited).toBe(5)
    // one that throws at once is a bug as one that rejects: the visits in flight settle first
    let settled = 0
    const failing = createCrawler({
      maxInFlight: 4,
      visit: (path) => {
        if (path === '/bad') throw new Error('bug at once')
        return new Promise((done) =>
          setTimeout(() => {
            settled += 1
            done(undefined)
          }, 5),
        )
      },
    })
    failing.add(links(['/a', '/bad', '/b']))
    await expect(failing.run()).rejects.toThrow('bug at once')
    expect(settled).toBe(2)
  })
})
