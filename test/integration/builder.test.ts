/** A builder that lives: many builds over one output with warm render workers, one at a time, then closed. */
import { readFile, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { build } from '../../src/build/build.js'
import { createBuilder } from '../../src/build/builder.js'
import type { DemoApi } from '../../src/demo/server.js'
import { diffTrees, type EditableDemo, editFile, makeConfig, readTree, startEditableDemo } from './build-helpers.js'

let demo: EditableDemo
let api: DemoApi
let dir: string
let content: string

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
    } finally {
      await builder.close()
    }
  })

  it('runs builds asked for at once one after the other, and refuses builds once closed', async () => {
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
  })

  it('remembers what it verified, and still catches a kept file rewritten in place with its time put back', async () => {
    const out = join(dir, 'verified')
    const config = makeConfig(api.url, undefined, out)
    const builder = createBuilder({ config, site: config.sites[0]!, renderThreads: 1 })
    try {
      expect((await builder.build()).failures).toEqual([])
      expect(builder.verified?.size).toBe(0)
      // the first build over an output reads every kept file once, and remembers it by its lstat stamp
      expect((await builder.build({ only: ['99999'] })).filesWritten).toBe(0)
      const remembered = builder.verified?.size ?? 0
      expect(remembered).toBeGreaterThan(100)
      // the same bytes' length, another content, the modification time as it was: its change time still moved
      const file = join(out, 'about-us/index.html')
      const before = await stat(file)
      const html = await readFile(file, 'utf8')
      await writeFile(file, html.replace('<html', '<HTML'))
      await utimes(file, before.atime, before.mtime)
      const again = await builder.build({ only: ['99999'] })
      expect(again.failures).toEqual([])
      expect(again.notes.join('\n')).toContain('about-us/index.html')
      expect(await readFile(file, 'utf8')).toBe(html)
      expect(builder.verified?.size).toBe(remembered)
    } finally {
      await builder.close()
    }
  })
})
