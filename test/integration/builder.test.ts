/** A builder that lives: many builds over one output with warm render workers, one at a time, then closed. */
import { readFile, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { build } from '../../src/build/build.js'
import { createBuilder } from '../../src/build/builder.js'
import type { BuildProgress } from '../../src/build/types.js'
import { type DemoApi, startDemoApi } from '../../src/demo/server.js'
import { INLINE_RENDER_PAGES } from '../../src/shared/constants.js'
import { diffTrees, type EditableDemo, editFile, makeConfig, readTree, startEditableDemo } from './build-helpers.js'

let demo: EditableDemo
let api: DemoApi
let dir: string
let content: string

const TEAM_TEXT = 'The leadership team of Amberline Software.'

beforeAll(async () => {
  demo = await startEditableDemo('site-builder-')
  ;({ dir, content, api } = demo)
}, 120_000)

afterAll(() => demo?.close())

describe('createBuilder', () => {
  it('builds in full, then --only after a CMS edit, with the same workers, as one-shot builds would', async () => {
    const out = join(dir, 'out')
    const config = makeConfig(api.url, undefined, out)
    const builder = createBuilder({ config, site: config.sites[0]!, renderThreads: 1 })
    try {
      const first = await builder.build()
      expect(first.failures).toEqual([])
      expect(first.filesWritten).toBeGreaterThan(100)
      await editFile(join(content, 'pages/pl/o-nas.json'), 'Założyło je trzech', 'Założyło je sześciu')
      await api.reload()
      const second = await builder.build({ only: ['2'] })
      expect(second.failures).toEqual([])
      expect(second.only?.fallback).toBeUndefined()
      expect(second.changes.pages.changed).toEqual(['/pl/o-nas'])
      // a one-shot build from scratch over the same API data
      const fresh = join(dir, 'fresh')
      const freshConfig = makeConfig(api.url, undefined, fresh)
      expect((await build({ config: freshConfig, site: freshConfig.sites[0]!, renderThreads: 1 })).failures).toEqual([])
      expect(diffTrees(await readTree(fresh), await readTree(out))).toEqual([])
      // nothing changed since: the state's lines are the last build's own, the output the same bytes
      const lines = builder.memory?.last?.lines
      expect(lines?.pageParts.length).toBeGreaterThan(0)
      expect((await builder.build({ only: ['2'] })).filesWritten).toBe(0)
      expect(builder.memory?.last?.lines?.pageParts.every((part, k) => part === lines?.pageParts[k])).toBe(true)
      expect(diffTrees(await readTree(fresh), await readTree(out))).toEqual([])
    } finally {
      await builder.close()
    }
  })

  it('asks ahead for the pages an event names: the next build takes those answers, a later ask replaces one, a failed one is asked again', async () => {
    const out = join(dir, 'ahead')
    const config = makeConfig(api.url, undefined, out)
    const builder = createBuilder({ config, site: config.sites[0]!, renderThreads: 1 })
    const file = join(content, 'pages/pl/o-nas.json')
    const original = await readFile(file, 'utf8')
    // An edit in the CMS: the page's text says `mark`.
    const edit = async (mark: string) => {
      await writeFile(file, original.replace('Założyło je', `Założyło je ${mark}`))
      await api.reload()
    }
    const shows = async (mark: string) =>
      (await readFile(join(out, 'pl/o-nas/index.html'), 'utf8')).includes(`Założyło je ${mark}`)
    const uidPaths = ['/about-us', '/pl/o-nas', '/de/ueber-uns']
    const asked = (from: number) =>
      api.requests
        .slice(from)
        .map((request) => request.path)
        .filter((path) => uidPaths.includes(path))
    const askedAhead = async (from: number) => {
      while (asked(from).length < uidPaths.length) await new Promise((done) => setTimeout(done, 10))
    }
    try {
      // Before a first build it knows no page: nothing is asked.
      let from = api.requests.length
      builder.prefetch(['2'])
      expect(asked(from)).toEqual([])
      expect((await builder.build()).failures).toEqual([])

      // An event: its uid's pages in every locale are asked at once; the build asks none of them again.
      await edit('A')
      from = api.requests.length
      builder.prefetch(['2'])
      await askedAhead(from)
      const afterAhead = api.requests.length
      const first = await builder.build({ only: ['2'] })
      expect(first.failures).toEqual([])
      expect(first.changes.pages.changed).toEqual(['/pl/o-nas'])
      expect(asked(afterAhead)).toEqual([])
      expect(await shows('A')).toBe(true)

      // Two events for the same page: the second ask replaces the first's answer.
      await edit('B')
      from = api.requests.length
      builder.prefetch(['/pl/o-nas'])
      await askedAhead(from)
      await edit('C')
      from = api.requests.length
      builder.prefetch(['2'])
      await askedAhead(from)
      expect((await builder.build({ only: ['2'] })).failures).toEqual([])
      expect(await shows('C')).toBe(true)

      // An ask that failed (the API answered 500) is asked again by the build, which succeeds.
      await edit('D')
      api.setFaults([{ path: '/pl/o-nas', kind: 'status500' }])
      from = api.requests.length
      builder.prefetch(['2'])
      await askedAhead(from)
      api.setFaults([])
      const afterFailed = api.requests.length
      const last = await builder.build({ only: ['2'] })
      expect(last.failures).toEqual([])
      expect(asked(afterFailed)).toEqual(['/pl/o-nas'])
      expect(await shows('D')).toBe(true)
    } finally {
      api.setFaults([])
      await writeFile(file, original)
      await api.reload()
      await builder.close()
    }
  })

  it('drops an ask a later one replaced before it was sent: a burst of events for one page asks for it once', async () => {
    const config = makeConfig(api.url, undefined, join(dir, 'burst'))
    const builder = createBuilder({ config, site: config.sites[0]!, renderThreads: 1 })
    try {
      expect((await builder.build()).failures).toEqual([])
      const from = api.requests.length
      for (let k = 0; k < 50; k++) builder.prefetch(['2'])
      expect((await builder.build({ only: ['2'] })).failures).toEqual([])
      const asked = api.requests.slice(from).map((request) => request.path)
      for (const page of ['/about-us', '/pl/o-nas', '/de/ueber-uns'])
        expect(asked.filter((path) => path === page)).toHaveLength(1)
    } finally {
      await builder.close()
    }
  })

  it('counts a scheduled change from when its answer was asked ahead, not from when the build took it', async () => {
    const config = makeConfig(api.url, undefined, join(dir, 'ahead-recheck'))
    const builder = createBuilder({ config, site: config.sites[0]!, renderThreads: 1 })
    try {
      expect((await builder.build()).failures).toEqual([])
      // a record on the page starts in a minute: the API answers it with max-age up to then
      const starts = Date.now() + 60_000
      api.setEdits([{ path: '/pl/o-nas', find: 'Założyło je', replace: 'Zaplanowane', from: starts }])
      const from = api.requests.length
      builder.prefetch(['2'])
      while (!api.requests.slice(from).some((request) => request.path === '/pl/o-nas'))
        await new Promise((done) => setTimeout(done, 10))
      // the build starts later (a quiet period, a build before it): the time stays the answer's
      await new Promise((done) => setTimeout(done, 2000))
      const result = await builder.build({ only: ['2'] })
      expect(result.failures).toEqual([])
      const at = result.recheck.pages.find((page) => page.path === '/pl/o-nas')?.at
      expect(at).toBeGreaterThanOrEqual(starts)
      expect(at).toBeLessThan(starts + 1000)
    } finally {
      api.setEdits([])
      await builder.close()
    }
  })

  it("asks for an --only build's own pages first, each once: their answers come in with the initial data", async () => {
    const out = join(dir, 'own-first')
    const config = makeConfig(api.url, undefined, out)
    const builder = createBuilder({ config, site: config.sites[0]!, renderThreads: 1 })
    try {
      expect((await builder.build()).failures).toEqual([])
      const from = api.requests.length
      const only = await builder.build({ only: ['2'] })
      expect(only.failures).toEqual([])
      expect(only.only?.fallback).toBeUndefined()
      const asked = api.requests.slice(from).map((request) => request.path + (request.query.type ? ' initial' : ''))
      // four requests at a time (build.concurrency): the pages were asked before anything else
      expect(asked.slice(0, 4)).toEqual(expect.arrayContaining(['/about-us', '/pl/o-nas', '/de/ueber-uns']))
      for (const page of ['/about-us', '/pl/o-nas', '/de/ueber-uns'])
        expect(asked.filter((path) => path === page)).toHaveLength(1)
      expect(asked.filter((path) => path.endsWith(' initial'))).toHaveLength(3)
    } finally {
      await builder.close()
    }
  })

  it('runs builds asked for at once one after the other, refuses builds once closed, and may be closed again', async () => {
    const out = join(dir, 'queued')
    const config = makeConfig(api.url, undefined, out)
    const builder = createBuilder({ config, site: config.sites[0]!, renderThreads: 1 })
    const events: string[] = []
    const run = (name: string) =>
      builder.build({ onProgress: () => events.at(-1) !== name && events.push(name) }).then((result) => {
        events.push(`${name} done`)
        return result
      })
    const [a, b] = await Promise.all([run('a'), run('b')])
    expect(a.failures).toEqual([])
    expect(b.filesWritten).toBe(0)
    expect(events).toEqual(['a', 'a done', 'b', 'b done'])
    await builder.close()
    await expect(builder.build()).rejects.toThrow('This builder was closed')
    // a second close (a caller's cleanup after its own) has nothing left to release
    await expect(builder.close()).resolves.toBeUndefined()
  })

  it('stops a build its caller aborts, naming no DOMException, and builds again after', async () => {
    const config = makeConfig(api.url, undefined, join(dir, 'aborted'))
    const builder = createBuilder({ config, site: config.sites[0]!, renderThreads: 1 })
    try {
      await expect(builder.build({ signal: AbortSignal.abort() })).rejects.toThrow(
        'Build interrupted by an abort signal: the output folder was left as it was',
      )
      expect((await builder.build()).failures).toEqual([])
    } finally {
      await builder.close()
    }
  })

  // Ctrl-C's bar on a terminal ended on "332/900 · 16 failures": the pages its abort cut short, not the site's.
  it('reports no progress once aborted, so the pages the abort cuts short are never shown as failures', async () => {
    const config = makeConfig(api.url, undefined, join(dir, 'aborted-progress'))
    const stop = new AbortController()
    const late: BuildProgress[] = []
    const onProgress = (event: BuildProgress) => {
      if (stop.signal.aborted) late.push(event)
      else if (event.type === 'page' && event.done === 3) stop.abort('SIGINT')
    }
    await expect(
      build({ config, site: config.sites[0]!, renderThreads: 1, signal: stop.signal, onProgress }),
    ).rejects.toThrow('Build interrupted by SIGINT')
    expect(late).toEqual([])
  })

  it('starts its render workers again for the next build once one of them died', async () => {
    const workers: Worker[] = []
    const started = (worker: Worker) => workers.push(worker)
    process.on('worker', started)
    const config = makeConfig(api.url, undefined, join(dir, 'worker-died'))
    const builder = createBuilder({ config, site: config.sites[0]!, renderThreads: 1 })
    try {
      expect((await builder.build()).failures).toEqual([])
      // a worker that ends (a template that exits it, a native crash) between two builds of a publisher
      await workers[0]!.terminate()
      expect((await builder.build()).failures).toEqual([])
      expect(workers.length).toBe(2)
    } finally {
      process.off('worker', started)
      await builder.close()
    }
  })

  it('reads every kept file again in a full build, and catches one rewritten in place with its time put back', async () => {
    const out = join(dir, 'verified')
    const config = makeConfig(api.url, undefined, out)
    const builder = createBuilder({ config, site: config.sites[0]!, renderThreads: 1 })
    try {
      expect((await builder.build()).failures).toEqual([])
      expect((await builder.build()).filesWritten).toBe(0)
      // the same bytes' length, another content, the modification time as it was
      const file = join(out, 'about-us/index.html')
      const before = await stat(file)
      const html = await readFile(file, 'utf8')
      await writeFile(file, html.replace('<html', '<HTML'))
      await utimes(file, before.atime, before.mtime)
      const again = await builder.build()
      expect(again.failures).toEqual([])
      expect(again.notes.join('\n')).toContain('about-us/index.html')
      expect(again.filesWritten).toBe(1)
      expect(await readFile(file, 'utf8')).toBe(html)
    } finally {
      await builder.close()
    }
  })

  it('keeps its last pages whole when the pages --only asks again link as before, and crawls when not, to a full build either way', async () => {
    const out = join(dir, 'whole')
    const config = makeConfig(api.url, undefined, out)
    const site = config.sites[0]!
    const builder = createBuilder({ config, site, renderThreads: 1 })
    const fresh = join(dir, 'whole-fresh')
    const freshConfig = makeConfig(api.url, undefined, fresh)
    const sameAsFullBuild = async () => {
      expect((await build({ config: freshConfig, site: freshConfig.sites[0]!, renderThreads: 1 })).failures).toEqual([])
      expect(diffTrees(await readTree(fresh), await readTree(out))).toEqual([])
    }
    const page = '/services/support-maintenance'
    const link = 'See the <a href=\\"/old-services\\">overview of all services</a>'
    try {
      expect((await builder.build()).failures).toEqual([])
      // a text edit: every page asked again (the page in each locale, the pages linking to it, the API's
      // redirect paths) links as before, so no page is visited
      api.setEdits([{ path: page, find: 'Looking for our other offers?', replace: 'Other offers?' }])
      const text = await builder.build({ only: ['8'] })
      expect([text.failures, text.only?.crawled, text.changes.pages.changed]).toEqual([[], false, [page]])
      expect(text.redirects.map((r) => r.from)).toContain('/old-services')
      expect(text.pages.total).toBeGreaterThan(50)
      await sameAsFullBuild()
      // the one link to a redirect gone: the crawl runs, reaches that path no more, and so writes no redirect there
      api.setEdits([{ path: page, find: link, replace: 'See the overview of all services' }])
      const unlinked = await builder.build({ only: ['8'] })
      expect([unlinked.failures, unlinked.only?.crawled]).toEqual([[], true])
      expect(unlinked.redirects.map((r) => r.from)).not.toContain('/old-services')
      await sameAsFullBuild()
    } finally {
      api.setEdits([])
      await builder.close()
    }
  })

  it('names the page uid of a broken link on a page it kept whole, as a full build does', async () => {
    const out = join(dir, 'whole-broken')
    const config = makeConfig(api.url, undefined, out)
    const builder = createBuilder({ config, site: config.sites[0]!, renderThreads: 1 })
    const broken = { kind: 'BROKEN_CONTENT_LINK', item: '/no-such-page', from: '/careers', pageUid: 12 }
    const careers = {
      path: '/careers',
      find: 'Send your CV',
      replace: 'Read <a href=\\"/no-such-page\\">this</a>. Send your CV',
    }
    try {
      api.setEdits([careers])
      expect((await builder.build()).skipped).toContainEqual(expect.objectContaining(broken))
      api.setEdits([
        careers,
        { path: '/services/support-maintenance', find: 'Looking for our other offers?', replace: 'Other offers?' },
      ])
      const kept = await builder.build({ only: ['8'] })
      expect([kept.failures, kept.only?.crawled]).toEqual([[], false])
      expect(kept.skipped).toContainEqual(expect.objectContaining(broken))
    } finally {
      api.setEdits([])
      await builder.close()
    }
  })

  it('takes its own last output as it is for --only, and reads the folder again once another build wrote it', async () => {
    const out = join(dir, 'memory')
    const config = makeConfig(api.url, undefined, out)
    const site = config.sites[0]!
    const builder = createBuilder({ config, site, renderThreads: 1 })
    try {
      expect((await builder.build()).failures).toEqual([])
      expect(builder.memory?.last?.outDir).toBe(out)
      // not walked: an --only build reads and writes only what it changes
      await writeFile(join(out, 'left-by-hand.txt'), 'x')
      const only = await builder.build({ only: ['99999'] })
      expect([only.failures, only.filesWritten]).toEqual([[], 0])
      expect(only.notes.join('\n')).not.toContain('left-by-hand.txt')
      // another build over the folder (a one-shot `site build` after a CMS edit) replaced the state: the
      // builder reads the folder as untrusted again
      api.setEdits([{ path: '/about-us/team', find: TEAM_TEXT, replace: 'The team.' }])
      const other = await build({ config, site, renderThreads: 1 })
      expect(other.notes.join('\n')).toContain('left-by-hand.txt')
      await writeFile(join(out, 'planted.txt'), 'x')
      const after = await builder.build({ only: ['99999'] }).finally(() => api.setEdits([]))
      expect(after.failures).toEqual([])
      expect(after.notes.join('\n')).toContain('"planted.txt"')
      await expect(stat(join(out, 'planted.txt'))).rejects.toThrow()
      // a failed build leaves the folder, and so what the builder knows of it, as it was
      const known = builder.memory?.last
      expect(known?.seal).toBeTruthy()
      api.setFaults([{ path: '/about-us', kind: 'malformed-json' }])
      const failed = await builder.build({ only: ['/about-us'] }).finally(() => api.setFaults([]))
      expect(failed.failures.length).toBeGreaterThan(0)
      expect(builder.memory?.last).toBe(known)
    } finally {
      await builder.close()
    }
  })

  it('one-shot and left to choose, renders a small site in its own thread and starts workers for a larger one, to the same bytes', async () => {
    const workers: Worker[] = []
    const started = (worker: Worker) => workers.push(worker)
    process.on('worker', started)
    const generated = await startDemoApi({ port: 0, generate: { pagesPerLocale: 50 } })
    try {
      const oneShot = async (apiUrl: string, name: string, only?: string[]) => {
        const config = makeConfig(apiUrl, undefined, join(dir, name))
        const builder = createBuilder({ config, site: config.sites[0]!, warm: false })
        try {
          return await builder.build({ only })
        } finally {
          await builder.close()
        }
      }
      const small = await oneShot(api.url, 'one-shot-small')
      expect([small.failures, small.pages.total < INLINE_RENDER_PAGES, workers.length]).toEqual([[], true, 0])
      const large = await oneShot(generated.url, 'one-shot-large')
      expect([large.failures, large.pages.total > INLINE_RENDER_PAGES, workers.length]).toEqual([[], true, 1])
      // an --only build over it renders the few pages it names in its own thread
      const only = await oneShot(generated.url, 'one-shot-large', [large.pages.paths[1]!])
      expect([only.failures, only.only?.fallback, workers.length]).toEqual([[], undefined, 1])
      // the same output as a build that renders every page in a worker
      for (const [from, name] of [
        [api.url, 'one-shot-small'],
        [generated.url, 'one-shot-large'],
      ] as const) {
        const config = makeConfig(from, undefined, join(dir, `${name}-pool`))
        expect((await build({ config, site: config.sites[0]!, renderThreads: 1 })).failures).toEqual([])
        expect(diffTrees(await readTree(join(dir, `${name}-pool`)), await readTree(join(dir, name)))).toEqual([])
      }
    } finally {
      process.off('worker', started)
      await generated.close()
    }
  }, 120_000)
})
