import { EventEmitter } from 'node:events'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

// chokidar's events come when the test says: a busy machine can pass one on after the reload it belonged to
const watchers: EventEmitter[] = []
vi.mock('chokidar', () => ({
  watch: () => {
    const watcher = Object.assign(new EventEmitter(), { close: async () => {} })
    watchers.push(watcher)
    setImmediate(() => watcher.emit('ready'))
    return watcher
  },
}))

const { watchProject } = await import('../../../src/preview/watch.js')

describe('watchProject, with chokidar’s events when the test sends them', () => {
  let dir = ''
  afterEach(async () => {
    watchers.length = 0
    await rm(dir, { recursive: true, force: true })
  })

  it('reloads once for a save whose event comes after its reload, and again for a real change', async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-watch-late-'))
    const file = join(dir, 'Footer.tsx')
    await writeFile(file, 'v0')
    const reloads: string[][] = []
    const watcher = await watchProject({
      paths: [dir],
      debounceMs: 10,
      onChange: async (changed) => void reloads.push(changed),
    })
    const chokidar = watchers[0]!
    try {
      await writeFile(file, 'v1')
      chokidar.emit('all', 'change', file)
      await expect.poll(() => reloads.length, { timeout: 5000 }).toBe(1)
      // the same save's event again, late: the file is as the last reload read it
      chokidar.emit('all', 'change', file)
      await new Promise((done) => setTimeout(done, 200))
      expect(reloads).toEqual([[file]])
      // another save of the same size: a change
      await writeFile(file, 'v2')
      chokidar.emit('all', 'change', file)
      await expect.poll(() => reloads.length, { timeout: 5000 }).toBe(2)
      await rm(file)
      chokidar.emit('all', 'unlink', file)
      await expect.poll(() => reloads.length, { timeout: 5000 }).toBe(3)
    } finally {
      await watcher.close()
    }
  })

  it('still reloads after a wait that ended with the change it was set for already reloaded', async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-watch-late-'))
    const file = join(dir, 'Header.tsx')
    await writeFile(file, 'v0')
    const reloads: string[] = []
    const watcher = await watchProject({
      paths: [dir],
      debounceMs: 300,
      onChange: async () => {
        reloads.push(await readFile(file, 'utf8'))
        await new Promise((done) => setTimeout(done, 100))
      },
    })
    const chokidar = watchers[0]!
    const save = async (text: string) => {
      await writeFile(file, text)
      chokidar.emit('all', 'change', file)
    }
    try {
      await save('v1')
      await expect.poll(() => reloads.length, { timeout: 5000 }).toBe(1)
      // saved during that reload: the reload after it reads v2, and ends before v2's own wait does
      await save('v2')
      await expect.poll(() => reloads, { timeout: 5000 }).toEqual(['v1', 'v2'])
      await new Promise((done) => setTimeout(done, 400))
      await save('v3')
      await expect.poll(() => reloads, { timeout: 5000 }).toEqual(['v1', 'v2', 'v3'])
    } finally {
      await watcher.close()
    }
  })
})
