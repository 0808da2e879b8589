import { EventEmitter } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
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

describe('watchProject, chokidar’s event for a save already reloaded', () => {
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
      await expect.poll(() => reloads.length).toBe(1)
      // the same save's event again, late: the file is as the last reload read it
      chokidar.emit('all', 'change', file)
      await new Promise((done) => setTimeout(done, 200))
      expect(reloads).toEqual([[file]])
      // another save of the same size: a change
      await writeFile(file, 'v2')
      chokidar.emit('all', 'change', file)
      await expect.poll(() => reloads.length).toBe(2)
      await rm(file)
      chokidar.emit('all', 'unlink', file)
      await expect.poll(() => reloads.length).toBe(3)
    } finally {
      await watcher.close()
    }
  })
})
